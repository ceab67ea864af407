import type { IncomingMessage, ServerResponse } from 'node:http';
import { prepareRequest } from '../http/prepared.js';
import { headersView } from './headers-view.js';
import { requestView } from './request-view.js';
import { keptRawBody, requestUrl, type ToWebRequestOptions, toWebRequest } from './to-web-request.js';

/** Bodies up to this size with a declared Content-Length are read whole (when needed); larger or chunked ones stream. */
const BUFFER_LIMIT = 256 * 1024;

/**
 * The fast path of the Node bridge: for GET/HEAD and small declared bodies, a Request view (node/request-view.ts)
 * over Node's headers (node/headers-view.ts) without a body stream; the bytes and the disconnect signal (made on
 * first use) travel beside it (http/prepared.ts), which spares the Web-stream and signal machinery on every call.
 * `undefined` when the slow path must be used.
 */
export function bufferedWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: ToWebRequestOptions = {},
): Request | undefined {
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const kept = keptRawBody(options);
  if (hasBody && kept === undefined) {
    const declared = Number(req.headers['content-length']);
    if (!(declared >= 0 && declared <= BUFFER_LIMIT)) return undefined;
    if ((req as { _body?: unknown })._body === true || req.readableEnded) return undefined; // a parser took the stream
  }

  // The disconnect signal and its 'close' listener are made when someone first asks (a card GET never does); a
  // stream that only needs to hear of the disconnect listens on the response itself (`onAbort`).
  let controller: AbortController | undefined;
  const signal = (): AbortSignal => {
    if (controller) return controller.signal;
    const made = new AbortController();
    controller = made;
    onAbort(() => made.abort(new Error('client disconnected')));
    return made.signal;
  };
  const onAbort = (listener: () => void): (() => void) => {
    const gone = () => {
      if (!res.writableFinished) listener();
    };
    if (res.closed) {
      gone();
      return () => {};
    }
    res.once('close', gone);
    return () => res.off('close', gone);
  };

  // Read on first use: a request the handler does not own stays unread for the framework's next middleware.
  let reading: Promise<Uint8Array> | undefined;
  const body = !hasBody ? undefined : kept === undefined ? () => (reading ??= readAll(req)) : bytesOf(kept);
  const headers = headersView(req.rawHeaders);
  const url = options.url ?? requestUrl(req, options.trustProxy ?? false);
  const request = requestView({ method, url, headers, signal, body });
  return prepareRequest(request, { body, onAbort });
}

/**
 * What adapters call: the fast path when it applies (see {@link bufferedWebRequest}: no body, a small declared one,
 * or the raw bytes a framework kept), else {@link toWebRequest} (streamed or re-serialized body).
 */
export function nodeWebRequest(req: IncomingMessage, res: ServerResponse, options: ToWebRequestOptions = {}): Request {
  return bufferedWebRequest(req, res, options) ?? toWebRequest(req, res, options);
}

const encoder = new TextEncoder();
const bytesOf = (body: Uint8Array | string): Uint8Array => (typeof body === 'string' ? encoder.encode(body) : body);

function readAll(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
