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

/**
 * SSE frames as a Node stream: pulls the next frame only when the consumer wants more (backpressure), adds the
 * keep-alive comments, and releases the source (ends the subscription) when destroyed, e.g. on client disconnect.
 */
export function sseReadable(sse: SseOptions): Readable {
  let finished = false;
  const timer = setInterval(() => {
    if (!finished) stream.push(': keep-alive\n\n');
  }, sse.keepAliveMs);
  timer.unref?.();
  const stop = () => {
    finished = true;
    clearInterval(timer);
  };
  const stream: Readable = new Readable({
    read() {
      sse.rest.next().then(
        (next) => {
          if (finished) return;
          if (!next.done) return void stream.push(next.value);
          stop();
          stream.push(null);
        },
        (error: unknown) => {
          if (finished) return;
          stop();
          stream.push(sse.errorFrame(error));
          stream.push(null);
        },
      );
    },
    destroy(error, callback) {
      const released = !finished;
      stop();
      if (released) void Promise.resolve(sse.rest.return?.()).catch(() => {});
      callback(error);
    },
  });
  if (sse.first) stream.push(sse.first);
  return stream;
}
