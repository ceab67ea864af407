import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { responseText } from '../http/prepared.js';

/**
 * The body of a handler response for frameworks that send bodies themselves (Koa's `ctx.body`, Hapi's
 * `h.response()`): the already-serialized string when core built one, else the Web body read as text, or adapted to
 * a Node stream for event streams. `null` for no body. (Core's own SSE responses are better written with
 * {@link writeNodeResponse}, which takes their frames without a stream in between; the adapters do.) Returning the
 * ready string spares building and reading a body stream (docs/performance.md, "Hot-path tricks").
 */
export async function nodeResponseBody(response: Response): Promise<string | Readable | null> {
  if (response.status === 204 || response.status === 304) return null;
  const text = responseText(response);
  if (text !== undefined) return text;
  if (!response.body) return null;
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return Readable.fromWeb(response.body as NodeWebStream<Uint8Array>);
  }
  return response.text();
}
