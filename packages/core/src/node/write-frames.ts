import type { ServerResponse } from 'node:http';
import type { SseOptions } from '../http/sse.js';

/** A batch this large leaves at once rather than at the end of the turn. */
const BATCH_BYTES = 64 * 1024;

/**
 * Writes SSE frames straight to a Node response (no Web stream, no re-encoding). The first frame of a turn of the
 * event loop leaves at once; those that follow it in the same turn are joined and leave as one chunk (one chunked-encoding frame, one socket write:
 * docs/performance.md, "Hot-path tricks"); every batch is flushed for compression middleware. Waits for `drain`
 * when the client reads slowly. Stops and releases the source when the client goes away. Never rejects.
 */
export async function writeFrames(res: ServerResponse, sse: SseOptions): Promise<void> {
  let gone = false;
  let pending = '';
  let scheduled = false;
  const release = () => {
    if (gone) return;
    gone = true;
    void Promise.resolve(sse.rest.return?.()).catch(() => {});
  };
  res.once('close', () => {
    if (!res.writableFinished) release();
  });
  const send = () => {
    if (pending === '' || gone || res.writableEnded) return;
    const batch = pending;
    pending = '';
    res.write(batch);
    (res as { flush?: () => void }).flush?.();
  };
  const flush = () => {
    scheduled = false;
    send();
  };
  const write = (frame: string) => {
    pending += frame;
    if (!scheduled) {
      // The first frame of a turn leaves at once: held for the check phase, a paced stream's event would wait for
      // every other stream whose timer fired in the same turn (tens of ms with thousands of streams). Frames that
      // follow it in the same turn (a burst) are joined and leave at the end of the turn.
      scheduled = true;
      setImmediate(flush);
      send();
    } else if (pending.length >= BATCH_BYTES) send();
  };
  const timer = setInterval(() => {
    if (!gone) write(': keep-alive\n\n');
  }, sse.keepAliveMs);
  timer.unref?.();
  try {
    if (sse.first) write(sse.first);
    else res.flushHeaders();
    for (;;) {
      if (res.writableNeedDrain) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
      const next = await sse.rest.next();
      if (gone || next.done) break;
      write(next.value);
    }
  } catch (error) {
    if (!gone) write(sse.errorFrame(error));
  } finally {
    clearInterval(timer);
    if (!gone) {
      // The last batch goes with the end of the response.
      const batch = pending;
      pending = '';
      res.end(batch);
    }
  }
}
