import type { ServerResponse } from 'node:http';
import { responseFrames, responseHeaders, responseText } from '../http/prepared.js';
import { finishedFrames } from '../http/sse.js';
import { writeFrames } from './write-frames.js';

/**
 * Web Response → Node response: status, headers (several Set-Cookie kept apart), then the body chunk by chunk,
 * waiting for `drain` and calling `flush()` (compression middleware) after each chunk so SSE events leave at once.
 * Stops reading when the client goes away. Never rejects. Not an async function: a ready answer is written at once and
 * answered with one shared settled promise (an async frame per request less, docs/performance.md "Hot-path tricks").
 */
export function writeNodeResponse(res: ServerResponse, response: Response): Promise<void> {
  try {
    writeHead(res, response);
    const frames = responseFrames(response);
    if (frames) return writeFrames(res, frames);
    const text = responseText(response);
    if (text !== undefined || !response.body) {
      // One write for status, headers and an already-serialized body (docs/performance.md, "Hot-path tricks").
      res.end(text);
      return WRITTEN;
    }
    return writeBody(res, response.body);
  } catch (error) {
    // Rejects, as the async function this was did (a bad header name, a write after the end).
    return Promise.reject(error);
  }
}

const WRITTEN = Promise.resolve();

/** Status and headers onto Node's response (not sent yet). */
function writeHead(res: ServerResponse, response: Response): void {
  res.statusCode = response.status;
  const headers = responseHeaders(response); // the lazy responses' record as is: no `Headers` filled and iterated
  for (const name in headers) res.setHeader(name, headers[name] as string | string[]);
}

/**
 * {@link writeNodeResponse} for an event stream (the bridge's listener, Express, Fastify's hijacked reply, Koa's
 * `ctx.respond = false`, Hapi's `h.abandon`, NestJS), once the microtasks queued so far have run (`process.nextTick`:
 * the agent's burst of events is in). An event stream over by then is written as one body, its whole text with a
 * Content-Length (`finishedFrames`: the same bytes, one socket write, no chunk framing, no frame writer); one that goes
 * on streams as before, the frames taken leading its first chunk. Node corks a response's first write until a
 * `nextTick` anyway, so nothing leaves later (docs/performance.md, "Koa and Hapi streams"). Never throws: a header Node
 * refuses on a finished stream ends the connection; one that goes on fails as `writeNodeResponse` does.
 */
export function writeNodeResponseAfterBurst(res: ServerResponse, response: Response): void {
  process.nextTick(afterBurst, res, response);
}

function afterBurst(res: ServerResponse, response: Response): void {
  const frames = responseFrames(response);
  const text = frames && finishedFrames(frames);
  if (text === undefined) {
    void writeNodeResponse(res, response);
    return;
  }
  try {
    writeHead(res, response);
    res.end(text); // Node sets the Content-Length of a body given whole to `end` before the head is sent
  } catch {
    res.destroy(); // a bad header (core's are checked): nothing can be sent, so the client is not left waiting
  }
}

/** A body stream, chunk by chunk. */
async function writeBody(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  let gone = false;
  void closed.then(() => {
    gone = true;
    void reader.cancel().catch(() => {});
  });
  try {
    res.flushHeaders?.();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) await Promise.race([new Promise((r) => res.once('drain', r)), closed]);
      (res as { flush?: () => void }).flush?.();
    }
  } catch {
    // The body failed mid-way (or the client left): nothing more can be sent.
  } finally {
    if (!gone) res.end();
  }
}
