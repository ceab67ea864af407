import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { responseFrames, responseText } from '../http/prepared.js';
import type { SseOptions } from '../http/sse.js';

/**
 * The body of a handler response for frameworks that send bodies themselves (Koa's `ctx.body`, Hapi's
 * `h.response()`): the already-serialized string when core built one, a Node stream of SSE frames for event streams
 * (no Web stream in between), else the Web body read as text or adapted to a Node stream. `null` for no body.
 */
export async function nodeResponseBody(response: Response): Promise<string | Readable | null> {
  if (response.status === 204 || response.status === 304) return null;
  const text = responseText(response);
  if (text !== undefined) return text;
  const frames = responseFrames(response);
  if (frames) return sseReadable(frames);
  if (!response.body) return null;
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return Readable.fromWeb(response.body as NodeWebStream<Uint8Array>);
  }
  return response.text();
}

/** Frames waiting beyond this many characters stop the pulling until the consumer took them. */
const BATCH_LIMIT = 64 * 1024;

/**
 * SSE frames as a Node stream: pulls frames while the consumer wants more (backpressure), hands the frames that
 * arrived in one turn of the event loop over as one chunk (one socket write instead of one per event), adds the
 * keep-alive comments, and releases the source (ends the subscription) when destroyed, e.g. on client disconnect.
 */
export function sseReadable(sse: SseOptions): Readable {
  let batch = sse.first;
  let finished = false; // the source ended, failed or was released
  let ending = false; // the last frames are in `batch`
  let pulling = false;
  let wanted = false;
  let scheduled = false;
  const timer = setInterval(() => {
    if (finished) return;
    batch += ': keep-alive\n\n';
    schedule();
  }, sse.keepAliveMs);
  timer.unref?.();
  const stop = () => {
    finished = true;
    clearInterval(timer);
  };
  const flush = () => {
    scheduled = false;
    if (stream.destroyed) return;
    if (batch) {
      const chunk = batch;
      batch = '';
      wanted = stream.push(chunk);
    }
    if (ending) stream.push(null);
    else pull();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  const pull = () => {
    if (pulling || finished || !wanted || batch.length >= BATCH_LIMIT) return;
    pulling = true;
    sse.rest.next().then(
      (next) => {
        pulling = false;
        if (finished) return;
        if (next.done) {
          stop();
          ending = true;
        } else batch += next.value;
        schedule();
        pull();
      },
      (error: unknown) => {
        pulling = false;
        if (finished) return;
        stop();
        batch += sse.errorFrame(error);
        ending = true;
        schedule();
      },
    );
  };
  const stream: Readable = new Readable({
    read() {
      wanted = true;
      if (batch || ending) schedule();
      else pull();
    },
    destroy(error, callback) {
      const released = !finished;
      stop();
      if (released) void Promise.resolve(sse.rest.return?.()).catch(() => {});
      callback(error);
    },
  });
  return stream;
}
