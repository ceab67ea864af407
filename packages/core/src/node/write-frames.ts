import type { ServerResponse } from 'node:http';
import type { SseOptions } from '../http/sse.js';

/**
 * Writes SSE frames straight to a Node response (no Web stream, no re-encoding). Frames that are ready in the same
 * turn of the event loop leave in one socket write (cork until the next turn); every batch is flushed for
 * compression middleware. Stops and releases the source when the client goes away. Never rejects.
 */
export async function writeFrames(res: ServerResponse, sse: SseOptions): Promise<void> {
  let gone = false;
  let corked = false;
  const release = () => {
    if (gone) return;
    gone = true;
    void Promise.resolve(sse.rest.return?.()).catch(() => {});
  };
  res.once('close', () => {
    if (!res.writableFinished) release();
  });
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
    (res as { flush?: () => void }).flush?.();
  };
  const write = (frame: string): boolean => {
    if (!corked) {
      corked = true;
      res.cork();
      setImmediate(uncork);
    }
    return res.write(frame);
  };
  const timer = setInterval(() => {
    if (!gone) write(': keep-alive\n\n');
  }, sse.keepAliveMs);
  timer.unref?.();
  try {
    if (sse.first) write(sse.first);
    else res.flushHeaders();
    for (;;) {
      const next = await sse.rest.next();
      if (gone || next.done) break;
      if (!write(next.value)) {
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
    }
  } catch (error) {
    if (!gone) write(sse.errorFrame(error));
  } finally {
    clearInterval(timer);
    // Node 24 drops data still corked when end() runs, so the last batch must leave first.
    uncork();
    if (!gone) res.end();
  }
}
