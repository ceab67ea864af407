import type { ServerResponse } from 'node:http';
import { KEEP_ALIVE_FRAME, SSE_BATCH_BYTES, type SseOptions } from '../http/sse.js';

/**
 * Writes SSE frames straight to a Node response (no Web stream, no re-encoding). The first frame of a turn of the
 * event loop leaves at once; those that follow it in the same turn are joined and leave as one chunk (one chunked-encoding frame, one socket write:
 * docs/performance.md, "Hot-path tricks"); every batch is flushed for compression middleware. Waits for `drain`
 * when the client reads slowly. Stops and releases the source when the client goes away. Never rejects.
 */
export function writeFrames(res: ServerResponse, sse: SseOptions): Promise<void> {
  return new FrameWriter(res, sse).run();
}

const WRITER = Symbol('a2a.frameWriter');
type WithWriter = ServerResponse & { [WRITER]?: FrameWriter };

/**
 * One open stream's state, with its methods on the prototype and no timer of its own (see {@link keepAlive}): an
 * SSE stream stays open for minutes, and a closure per callback plus a keep-alive timer cost ~0.5 KB per open
 * stream (docs/performance.md, "Scale").
 */
class FrameWriter {
  gone = false;
  pending = '';
  scheduled = false;

  constructor(
    readonly res: ServerResponse,
    readonly sse: SseOptions,
  ) {}

  async run(): Promise<void> {
    const { res, sse } = this;
    (res as WithWriter)[WRITER] = this;
    res.on('close', onClose); // one shared listener: the writer is found on the response
    keepAlive.add(this);
    try {
      // Taken, not kept: the first frame (the task snapshot, often the largest) would otherwise live as long as the
      // stream, held by the response that carries these options.
      const first = sse.first;
      sse.first = '';
      if (first) this.write(first);
      else res.flushHeaders();
      for (;;) {
        if (res.writableNeedDrain) await drained(res);
        if (this.gone) break;
        // A frame already there is taken without an await (an agent's burst of events: docs/performance.md,
        // "Hot-path tricks"); otherwise wait for the next one.
        let frame = sse.ready?.();
        if (frame === null) break; // over: no `next()` to hear it
        if (frame === undefined) {
          const next = await sse.rest.next();
          if (this.gone || next.done) break;
          frame = next.value;
        }
        this.write(frame);
      }
    } catch (error) {
      if (!this.gone) this.write(sse.errorFrame(error));
    } finally {
      keepAlive.delete(this);
      if (!this.gone) {
        // The last batch goes with the end of the response.
        const batch = this.pending;
        this.pending = '';
        res.end(batch);
      }
    }
  }

  /** The client went away: stop, and release the source. */
  release(): void {
    if (this.gone) return;
    this.gone = true;
    keepAlive.delete(this);
    void Promise.resolve(this.sse.rest.return?.()).catch(() => {});
  }

  write(frame: string): void {
    this.pending += frame;
    if (!this.scheduled) {
      // The first frame of a turn leaves at once: held for the check phase, a paced stream's event would wait for
      // every other stream whose timer fired in the same turn (tens of ms with thousands of streams). Frames that
      // follow it in the same turn (a burst) are joined and leave at the end of the turn.
      this.scheduled = true;
      setImmediate(flush, this);
      this.send();
    } else if (this.pending.length >= SSE_BATCH_BYTES) this.send();
  }

  send(): void {
    if (this.pending === '' || this.gone || this.res.writableEnded) return;
    const batch = this.pending;
    this.pending = '';
    this.res.write(batch);
    (this.res as { flush?: () => void }).flush?.();
  }
}

function onClose(this: WithWriter): void {
  const writer = this[WRITER];
  if (writer && !this.writableFinished) writer.release();
}

function flush(writer: FrameWriter): void {
  writer.scheduled = false;
  writer.send();
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * The `: keep-alive` comments of every open stream, one timer per interval instead of one per stream (a stream may
 * get its first comment sooner than a whole interval after it opened; comments carry nothing). A timer whose streams
 * have all ended stops at its next tick, not at once: short streams one after the other (an agent's burst each) would
 * otherwise make and clear a timer per stream (docs/performance.md, "Hot-path tricks").
 */
const keepAlive = {
  byInterval: new Map<number, { timer: ReturnType<typeof setInterval>; writers: Set<FrameWriter> }>(),
  add(writer: FrameWriter): void {
    const ms = writer.sse.keepAliveMs;
    let group = this.byInterval.get(ms);
    if (!group) {
      const writers = new Set<FrameWriter>();
      const timer = setInterval(() => {
        if (writers.size === 0) {
          clearInterval(timer);
          this.byInterval.delete(ms);
          return;
        }
        for (const w of writers) if (!w.gone) w.write(KEEP_ALIVE_FRAME);
      }, ms);
      timer.unref?.();
      group = { timer, writers };
      this.byInterval.set(ms, group);
    }
    group.writers.add(writer);
  },
  delete(writer: FrameWriter): void {
    this.byInterval.get(writer.sse.keepAliveMs)?.writers.delete(writer);
  },
};
