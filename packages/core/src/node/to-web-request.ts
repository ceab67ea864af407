import type { IncomingMessage, ServerResponse } from 'node:http';
import type { A2AError } from '../errors.js';
import { prepareRequest } from '../http/prepared.js';
import { bufferedWebRequest } from './buffered-request.js';
import { headersFromRaw } from './headers-view.js';
import { FORBIDDEN_METHODS, joinRequestUrl, requestTarget } from './request-target.js';

export interface ToWebRequestOptions {
  /** Public absolute URL of the request; default: built from the Host header (and X-Forwarded-* with trustProxy). */
  url?: string;
  /** Honour X-Forwarded-Proto/Host when building the URL. */
  trustProxy?: boolean;
  /**
   * Raw bytes a framework kept (e.g. `verify` hooks, Koa's rawBody): used first. Pass whatever the framework left
   * there; anything but a string or bytes is ignored.
   */
  rawBody?: unknown;
  /**
   * What a framework parser made of a body it consumed: a string or bytes are the body; any other value is handed
   * to the handler as the parsed JSON (never re-serialized: that would turn `-1e400` into `null` and overflow the
   * stack on deep nesting), and a reader of the bytes (e.g. a webhook receiver) is told they are gone.
   */
  parsedBody?: unknown;
  /**
   * The error a framework's body parser raised instead (Express's error middleware, Koa's `onError`): answered as
   * the A2A error it stands for (413, 415, -32700, 400) when the handler reads the body.
   */
  bodyError?: unknown;
  /**
   * The host refused the request as sent (Hapi: a path it cannot decode): the handler answers this error on its own
   * paths, as for an invalid Host, without running anything, and leaves other paths to the host.
   */
  refusal?: A2AError | undefined;
}

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

/** The kept raw body when it is one (a string or bytes). */
export function keptRawBody(options: ToWebRequestOptions): Uint8Array | string | undefined {
  const raw = options.rawBody;
  return typeof raw === 'string' || raw instanceof Uint8Array ? raw : undefined;
}

function bodyOf(req: IncomingMessage, res: ServerResponse, options: ToWebRequestOptions): BodyInit | undefined {
  const raw = keptRawBody(options);
  return raw !== undefined ? (raw as BodyInit) : streamOf(req, res);
}

/** A framework's parser read the body (or failed on it) and no raw bytes were kept: the stream is gone. */
export function bodyConsumed(req: IncomingMessage, options: ToWebRequestOptions): boolean {
  if (keptRawBody(options) !== undefined) return false;
  return options.bodyError !== undefined || (req as { _body?: unknown })._body === true || req.readableEnded;
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
  return new ReadableStream<Uint8Array>({
    start(controller) {
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
    },
    pull() {
      req.resume();
    },
    cancel: discard,
  });
}

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

/** Absolute URL of a Node request. */
export function requestUrl(req: IncomingMessage, trustProxy: boolean): string {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const proto = (trustProxy && first(req.headers['x-forwarded-proto'])) || (encrypted ? 'https' : 'http');
  const host =
    (trustProxy && first(req.headers['x-forwarded-host'])) ||
    req.headers.host ||
    first(req.headers[':authority']) ||
    'localhost';
  // Connect-style mounts (Express, connect) strip the prefix from `req.url` and keep the full path in `originalUrl`.
  return joinRequestUrl(proto, host, (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/');
}
