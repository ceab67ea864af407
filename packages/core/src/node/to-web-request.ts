import type { IncomingMessage, ServerResponse } from 'node:http';
import { prepareRequest } from '../http/prepared.js';
import { bufferedWebRequest } from './buffered-request.js';
import { headersFromRaw } from './headers-view.js';
import { FORBIDDEN_METHODS, requestTarget, requestUrl } from './request-target.js';
import { bodyConsumed, keptRawBody, type ToWebRequestOptions } from './web-request-options.js';

/**
 * Node request → Web Request. Body source order: raw bytes, then the untouched stream; a body a parser consumed
 * (its parsed value or its error) is handed over beside a bodyless request (see {@link bufferedWebRequest}).
 * The request's signal aborts when the client goes away before the response finished.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, options: ToWebRequestOptions = {}): Request {
  // A method Fetch refuses (TRACE...), or a body a parser consumed: the fast path's view, with what is left beside it.
  if (FORBIDDEN_METHODS.has(req.method ?? '') || bodyConsumed(req, options)) {
    return bufferedWebRequest(req, res, options) as Request;
  }
  const controller = new AbortController();
  const abort = () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  };
  res.once('close', abort);
  req.once('aborted', abort);

  const headers = headersFromRaw(req.rawHeaders);

  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    const body = bodyOf(req, res, options);
    if (body !== undefined) {
      init.body = body;
      if (body instanceof ReadableStream) init.duplex = 'half';
      else headers.delete('content-length');
    }
  }
  const { url, refusal } = requestTarget(options.url ?? requestUrl(req, options.trustProxy ?? false));
  // Prepared (with nothing else beside it): the bridge writes the handler's lazy responses itself (docs/performance.md,
  // "Hot-path tricks").
  return prepareRequest(new Request(url, init), { refusal: options.refusal ?? refusal });
}

function bodyOf(req: IncomingMessage, res: ServerResponse, options: ToWebRequestOptions): BodyInit | undefined {
  const raw = keptRawBody(options);
  return raw !== undefined ? (raw as BodyInit) : streamOf(req, res);
}

/** The request stream as a Web stream, pausing Node's stream when the consumer is slow. */
function streamOf(req: IncomingMessage, res: ServerResponse): ReadableStream<Uint8Array> {
  // Once the reader cancelled (413, an early answer) the Web stream is closed: Node's later 'data', 'end' and
  // 'error' events must not touch its controller, or they throw (ERR_INVALID_STATE) outside any caller.
  let settled = false;
  let onData: ((chunk: Buffer) => void) | undefined;
  // Drain and discard the rest so the socket stays usable.
  const discard = () => {
    settled = true;
    if (onData) req.off('data', onData);
    req.resume();
  };
  // Answered before the body was read (413, early errors): Node does not dump a body that has a reader, so the
  // next request on this keep-alive connection would wait behind it.
  res.once('finish', () => {
    if (!req.readableEnded) discard();
  });
  // Node's stream is listened to at the first read, not when the Web stream is made: a handler that never reads the
  // body (one that answers `undefined` for a path not its own: the playground before the agent, a parser after it)
  // must leave every byte where the next reader finds it. A high-water mark of 0 makes `pull` wait for a read.
  const listen = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    onData = (chunk: Buffer) => {
      if (settled) return;
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((controller.desiredSize ?? 1) <= 0) req.pause();
    };
    req.on('data', onData);
    req.once('end', () => {
      if (settled) return;
      settled = true;
      controller.close();
    });
    // `on`, not `once`: an error after the first (a reset while discarding) must not go unhandled.
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      controller.error(error);
    });
  };
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!onData) listen(controller);
        req.resume();
      },
      cancel: discard,
    },
    { highWaterMark: 0 },
  );
}
