import type { IncomingMessage, ServerResponse } from 'node:http';
import { prepareRequest } from '../http/prepared.js';
import type { Disconnect } from '../server/call-context.js';
import { headersView } from './headers-view.js';
import { bodyFromParserError } from './parser-error.js';
import { FORBIDDEN_METHODS, requestTarget, requestUrl } from './request-target.js';
import { requestView } from './request-view.js';
import { bodyConsumed, keptRawBody, type ToWebRequestOptions } from './web-request-options.js';

/** Bodies up to this size with a declared Content-Length are read whole (when needed); larger or chunked ones stream. */
const BUFFER_LIMIT = 256 * 1024;

/**
 * The fast path of the Node bridge: for GET/HEAD and small declared bodies, a Request view (node/request-view.ts)
 * over Node's headers (node/headers-view.ts) without a body stream; the bytes and the disconnect signal (made on
 * first use) travel beside it (http/prepared.ts), which spares the Web-stream and signal machinery on every call
 * (docs/performance.md, "Hot-path tricks").
 * `undefined` when the slow path must be used.
 */
export function bufferedWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: ToWebRequestOptions = {},
): Request | undefined {
  const method = req.method ?? 'GET';
  // TRACE & co. (which no A2A route reads a body for) stay on this path: a real Request refuses them.
  const forbidden = FORBIDDEN_METHODS.has(method);
  const hasBody = method !== 'GET' && method !== 'HEAD' && !forbidden;
  const consumed = hasBody && bodyConsumed(req, options);
  const left = consumed ? leftByParser(options) : undefined;
  // A parser that gave up (over its limit) left the rest unread and paused: discard it once answered, so the next
  // request on this keep-alive connection is read.
  if (options.bodyError !== undefined && !req.readableEnded) res.once('finish', () => void req.resume());
  const kept = left?.bytes ?? keptRawBody(options);
  if (hasBody && kept === undefined && !consumed) {
    const declared = Number(req.headers['content-length']);
    if (!(declared >= 0 && declared <= BUFFER_LIMIT)) return undefined;
  }

  const body = forbidden
    ? EMPTY
    : !hasBody
      ? undefined
      : left
        ? left.body
        : kept === undefined
          ? lazyBody(req)
          : bytesOf(kept);
  const headers = headersView(req.rawHeaders);
  const { url, refusal } = requestTarget(options.url ?? requestUrl(req, options.trustProxy ?? false));
  // One object is both the view's parts and the side channel (one object per request less, issue 39,
  // docs/performance.md "Per request"). A forbidden method's real Request throws on the method before its body.
  const parts = {
    method,
    url,
    headers,
    body,
    disconnect: new ResponseDisconnect(res),
    refusal: options.refusal ?? refusal,
    parsed: left?.parsed,
  };
  return prepareRequest(requestView(parts), parts);
}

/**
 * The disconnect signal and its 'close' listener, made when someone first asks (a card GET never does); a stream
 * that only needs to hear of the disconnect listens on the response itself (`onAbort`). An object of its own that
 * holds only the response: it lives as long as a stream, and the request's bytes must not (docs/performance.md,
 * "Scale"); one object instead of two closures and their context (issue 39, "Per request").
 */
class ResponseDisconnect implements Disconnect {
  readonly #res: ServerResponse;
  #controller: AbortController | undefined;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  onAbort(listener: () => void): () => void {
    const res = this.#res;
    const gone = () => {
      if (!res.writableFinished) listener();
    };
    if (res.closed) {
      gone();
      return () => {};
    }
    res.once('close', gone);
    return () => res.off('close', gone);
  }

  signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const made = new AbortController();
    this.#controller = made;
    this.onAbort(() => made.abort(new Error('client disconnected')));
    return made.signal;
  }
}

/** Reads the body on first use: a request the handler does not own stays unread for the framework's next middleware. */
function lazyBody(req: IncomingMessage): () => Promise<Uint8Array> {
  let reading: Promise<Uint8Array> | undefined;
  return () => (reading ??= readAll(req));
}

/**
 * What a parser that consumed the body left: its bytes (a string or Buffer body, the raw text of a body it could
 * not parse), the error the handler answers when it reads the body, or the parsed value (no bytes at all).
 */
function leftByParser(options: ToWebRequestOptions): {
  body?: Uint8Array | (() => Promise<Uint8Array>);
  bytes?: Uint8Array | string;
  parsed?: unknown;
} {
  if (options.bodyError !== undefined) {
    const left = bodyFromParserError(options.bodyError);
    if (typeof left === 'string') return { body: bytesOf(left), bytes: left };
    return { body: () => Promise.reject(left) };
  }
  const parsed = options.parsedBody;
  if (typeof parsed === 'string' || parsed instanceof Uint8Array) return { body: bytesOf(parsed), bytes: parsed };
  if (parsed === undefined || parsed === null) return { body: EMPTY };
  return { parsed };
}

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);
const ignore = () => {};
const bytesOf = (body: Uint8Array | string): Uint8Array => (typeof body === 'string' ? encoder.encode(body) : body);

/** A body being read: its chunks (the first apart, most bodies are one chunk) and its promise's ends. */
interface Reading {
  first: Buffer | undefined;
  rest: Buffer[] | undefined;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

/** Where `readAll`'s shared listeners find the request's read: they are called with the request as `this`. */
const READING = Symbol('a2a.bodyReading');
type ReadingRequest = IncomingMessage & { [READING]?: Reading | undefined };

/**
 * The body's bytes. Its three listeners are module functions shared by every request, with the read's state on the
 * request itself: per request, one state object instead of four closures and their context (issue 39,
 * docs/performance.md "Per request").
 */
function readAll(req: IncomingMessage): Promise<Uint8Array> {
  // A module function as the executor, not a closure over the request (and its context): it leaves the new state
  // in `started`, taken at once.
  const read = new Promise<Uint8Array>(startReading);
  (req as ReadingRequest)[READING] = started;
  started = undefined;
  req.on('data', onBodyData);
  req.on('end', onBodyEnd);
  req.on('error', onBodyError);
  return read;
}

/** The state {@link startReading} made last, until {@link readAll} takes it. */
let started: Reading | undefined;

function startReading(resolve: (bytes: Uint8Array) => void, reject: (error: Error) => void): void {
  started = { first: undefined, rest: undefined, resolve, reject };
}

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const reading = this[READING];
  if (!reading) return;
  if (reading.first === undefined) reading.first = chunk;
  else if (reading.rest) reading.rest.push(chunk);
  else reading.rest = [chunk];
}

function onBodyEnd(this: ReadingRequest): void {
  const reading = doneReading(this);
  if (!reading) return;
  const { first, rest } = reading;
  reading.resolve(rest ? Buffer.concat([first as Buffer, ...rest]) : (first ?? Buffer.alloc(0)));
}

function onBodyError(this: ReadingRequest, error: Error): void {
  doneReading(this)?.reject(error);
}

/**
 * The listeners go once the body is read: left on the request, they (and the state) kept its bytes for as long as
 * the request lived (a whole stream).
 */
function doneReading(req: ReadingRequest): Reading | undefined {
  const reading = req[READING];
  req[READING] = undefined;
  req.off('data', onBodyData);
  req.off('end', onBodyEnd);
  req.off('error', onBodyError);
  req.on('error', ignore); // a late error (the client left) must still find a listener
  return reading;
}
