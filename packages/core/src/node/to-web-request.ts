import type { IncomingMessage, ServerResponse } from 'node:http';
import { prepareRequest } from '../http/prepared.js';
import { headersFromRaw } from './headers-view.js';

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
  /** A body a framework parser already consumed: re-serialized as JSON when the stream is gone. */
  parsedBody?: unknown;
}

/**
 * Node request → Web Request. Body source order: raw bytes, then the untouched stream, then the parsed body.
 * The request's signal aborts when the client goes away before the response finished.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, options: ToWebRequestOptions = {}): Request {
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
  // Prepared (with nothing beside it): the bridge writes the handler's lazy responses itself.
  return prepareRequest(new Request(options.url ?? requestUrl(req, options.trustProxy ?? false), init), {});
}

/** The kept raw body when it is one (a string or bytes). */
export function keptRawBody(options: ToWebRequestOptions): Uint8Array | string | undefined {
  const raw = options.rawBody;
  return typeof raw === 'string' || raw instanceof Uint8Array ? raw : undefined;
}

function bodyOf(req: IncomingMessage, res: ServerResponse, options: ToWebRequestOptions): BodyInit | undefined {
  const raw = keptRawBody(options);
  if (raw !== undefined) return raw as BodyInit;
  const consumed = (req as { _body?: unknown })._body === true || req.readableEnded;
  if (!consumed) return streamOf(req, res);
  if (options.parsedBody === undefined) return undefined;
  return typeof options.parsedBody === 'string' ? options.parsedBody : JSON.stringify(options.parsedBody);
}

/** The request stream as a Web stream, pausing Node's stream when the consumer is slow. */
function streamOf(req: IncomingMessage, res: ServerResponse): ReadableStream<Uint8Array> {
  let onData: ((chunk: Buffer) => void) | undefined;
  // Drain and discard the rest so the socket stays usable; enqueueing into the canceled stream would throw.
  const discard = () => {
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
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      };
      req.on('data', onData);
      req.once('end', () => controller.close());
      req.once('error', (error) => controller.error(error));
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
    req.headers[':authority'] ||
    'localhost';
  // Connect-style mounts (Express, connect) strip the prefix from `req.url` and keep the full path in `originalUrl`.
  return `${proto}://${host}${(req as { originalUrl?: string }).originalUrl ?? req.url ?? '/'}`;
}
