/**
 * A side channel between a host bridge and the handler that skips Web-stream work on the hot path: a bridge that
 * holds the whole request body (or reads it on demand) attaches it to the Request it builds, and
 * responses built from a string remember it, so a bridge can write it in one call instead of reading a stream.
 * Both are optional: a plain Request/Response works the same without them. Each trick below:
 * docs/performance.md, "Hot-path tricks".
 */
import type { A2AError } from '../errors.js';
import { nativeClass } from '../native-class.js';
import type { Disconnect } from '../server/call-context.js';
import { delegateToReal } from './delegate-to-real.js';
import { finishedFrames, type SseOptions, sseStream } from './sse.js';

interface PreparedRequest {
  /** The whole body, or a function reading it on first use (so a request that is not ours is left unread). */
  body?: Uint8Array | (() => Promise<Uint8Array>) | undefined;
  /**
   * How the handler hears that the client went away: the signal made on demand (what `request.signal` returns), and
   * `onAbort`, which runs a listener without making it (a stream only needs to hear of it, and an AbortSignal with a
   * listener costs tens of microseconds in a busy process). Handed to the call as it is.
   */
  disconnect?: Disconnect | undefined;
  /**
   * The request as the client sent it cannot be served (an invalid Host header): the handler answers this error on
   * its own paths, and leaves other paths to the host as usual.
   */
  refusal?: A2AError | undefined;
  /**
   * The body as a framework's JSON parser left it (its bytes are gone): read as the request's JSON in place of the
   * bytes, so no value is re-serialized (non-finite numbers stay non-finite and are refused, depth is checked).
   */
  parsed?: unknown;
}

// Kept on the objects themselves, not in WeakMaps: V8's young-generation GC keeps a WeakMap value alive (and
// promotes it) until a full GC finds its key dead, so per-request entries (a closure over Node's req/res) turned
// every request into old-space garbage. A symbol key stays out of JSON, Object.keys and for-in.
// See docs/performance.md, "Hot-path tricks".
// Exported for the Node bridge's request view, which has the slot from the start (node/request-view.ts).
export const PREPARED = Symbol('a2a.prepared');
type WithPrepared = Request & { [PREPARED]?: PreparedRequest };

export function prepareRequest(request: Request, prepared: PreparedRequest): Request {
  (request as WithPrepared)[PREPARED] = prepared;
  return request;
}

/**
 * Whether the request came through a bridge that reads the lazy responses below through the side channel (ours).
 * Anything else gets plain Responses (see {@link plainResponse}).
 */
export const isPrepared = (request: Request): boolean => (request as WithPrepared)[PREPARED] !== undefined;

/**
 * `to`, refused as `from` was: a host that builds a second Request from a bridge's (to change its URL or body) keeps
 * the bridge's refusal (an invalid Host) on it. `to` itself when `from` carries none.
 */
export function carryRefusal(from: Request, to: Request): Request {
  const refusal = preparedRefusal(from);
  return refusal ? prepareRequest(to, { refusal }) : to;
}

/** How the handler learns that the request's client went away: the host's cheap hook when it gave one. */
export function requestDisconnect(request: Request): Disconnect {
  // The bridge's own object as it is (one object per request less, issue 39, docs/performance.md "Per request"): it
  // holds the response, not the request or its body, which the call must not keep for a stream's life.
  return (request as WithPrepared)[PREPARED]?.disconnect ?? { signal: () => request.signal };
}

/** Why the bridge says the request cannot be served (see {@link PreparedRequest.refusal}). */
export const preparedRefusal = (request: Request): A2AError | undefined => (request as WithPrepared)[PREPARED]?.refusal;

/** The JSON value a framework's parser made of the body, when that is all the bridge has. */
export const preparedParsed = (request: Request): unknown => (request as WithPrepared)[PREPARED]?.parsed;

/** Whether a bridge holds the body beside the request (without starting to read it). */
export const hasPreparedBody = (request: Request): boolean => (request as WithPrepared)[PREPARED]?.body !== undefined;

export function preparedBody(request: Request): Uint8Array | Promise<Uint8Array> | undefined {
  const body = (request as WithPrepared)[PREPARED]?.body;
  return typeof body === 'function' ? body() : body;
}

// Header records the bridge may write as they are: lowercase token names, visible-ASCII values without edge spaces
// (what `Headers` would keep unchanged). Anything else goes through `Headers` at once, which normalizes or throws.
const PLAIN_NAME = /^[a-z0-9-]+$/;
const PLAIN_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

const isPlain = (headers: Record<string, string>): boolean => {
  for (const name in headers) {
    if (!PLAIN_NAME.test(name) || !PLAIN_VALUE.test(headers[name] as string)) return false;
  }
  return true;
};

/**
 * Shared records checked once ({@link plainHeaders}): a card's answers reuse theirs for every GET, and two regular
 * expressions per header were ~12 % of a card GET through core (docs/performance.md, "Hot-path tricks"). Only records
 * made once go in, so the set holds a few long-lived objects, never per-request ones.
 */
const PLAIN_RECORDS = new WeakSet<Record<string, string>>();

/**
 * A header record made once and shared by many responses (a card's), checked here once instead of per response:
 * frozen, as nothing may change it after the check. A record that is not plain is returned as it is (each response
 * then checks it, and normalizes it through `Headers`).
 */
export function plainHeaders<T extends Record<string, string>>(headers: T): Readonly<T> {
  if (!PLAIN_RECORDS.has(headers) && isPlain(headers)) PLAIN_RECORDS.add(Object.freeze(headers));
  return headers;
}

export interface LazyInit {
  status: number;
  headers: Record<string, string>;
}

/**
 * The base of the lazy responses, a view that stands for a `Response` (as the Node bridge's request view stands for
 * a `Request`): status and headers are its own, the headers a record until someone reads `headers` (undici's
 * `Headers` costs ~2 µs to fill and iterate, more than the rest of a small response; a bridge takes the record
 * through {@link responseHeaders}), and the body lives beside it until someone reads it. Anything else `Response`
 * offers is forwarded to the real one made on first use ({@link LazyResponse.full}), and `instanceof Response` holds.
 * No `Response` is built, nor the class named, for a bridge that writes the record and the text: naming `Response`
 * makes Node 20 load undici (~16 ms CPU), which an Express or Koa app may never need (docs/performance.md,
 * "Hot-path tricks").
 */
abstract class LazyResponse {
  readonly #status: number;
  #record: Record<string, string> | undefined;
  #headers: Headers | undefined;
  #full: Response | undefined;

  constructor(init: LazyInit) {
    // What `new Response()` would refuse, refused as it would (core only answers with these).
    if (!(init.status >= 200 && init.status <= 599)) throw new RangeError(`Invalid response status ${init.status}`);
    this.#status = init.status;
    if (PLAIN_RECORDS.has(init.headers) || isPlain(init.headers)) this.#record = init.headers;
    else this.#headers = new Headers(init.headers);
  }

  /** The record while no one has asked for the `Headers` (which may since have been changed). */
  static recordOf(response: Response): Record<string, string> | undefined {
    return #record in response && !response.#headers ? response.#record : undefined;
  }

  /** What a plain copy is built with: the record while no `Headers` was made (a host may keep it as it is). */
  static headersInit(response: LazyResponse): HeadersInit {
    return response.#headers ?? (response.#record as Record<string, string>);
  }

  get status(): number {
    return this.#status;
  }
  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }
  get statusText(): string {
    return '';
  }
  get type(): ResponseType {
    return 'default';
  }
  get url(): string {
    return '';
  }
  get redirected(): boolean {
    return false;
  }
  get headers(): Headers {
    this.#headers ??= new Headers(this.#record);
    return this.#headers;
  }
  get body(): ReadableStream<Uint8Array> | null {
    return this.full().body;
  }
  /** Only once someone made the body: asking does not make it (an SSE body would start its frames). */
  get bodyUsed(): boolean {
    return this.#full?.bodyUsed ?? false;
  }

  /** The same response with a real body; made once, on first use, by {@link full}. */
  protected abstract makeFull(): Response;

  full(): Response {
    this.#full ??= this.makeFull();
    return this.#full;
  }

  /** What the members of `Response` this view does not implement are forwarded to. */
  real(): Response {
    return this.full();
  }

  text(): Promise<string> {
    return this.full().text();
  }
  json(): Promise<unknown> {
    return this.full().json();
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.full().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.full().blob();
  }
  formData(): Promise<FormData> {
    return this.full().formData();
  }
  // The real one, teed: a clone must have its own body.
  clone(): Response {
    return this.full().clone();
  }
}
// Named members only, as for the request view: Response.prototype's util.inspect hook is not forwarded (inspecting
// an SSE response would start its frames).
delegateToReal(LazyResponse, () => nativeClass(Response), new Set(), Object.getOwnPropertyNames);

/**
 * A Response whose string body becomes a stream only when someone reads it: building a body stream costs more than
 * the rest of a small response, and a bridge that writes {@link responseText} never needs it.
 * See docs/performance.md, "Hot-path tricks".
 */
class TextResponse extends LazyResponse {
  #text: string;

  constructor(text: string, init: LazyInit) {
    super(init);
    this.#text = text;
  }

  static textOf(response: Response): string | undefined {
    return #text in response ? response.#text : undefined;
  }

  static plainOf(response: Response): Response | undefined {
    return #text in response ? response.full() : undefined;
  }

  protected makeFull(): Response {
    // The global Response of the moment: `@hono/node-server` replaces it with one that writes a string body and a
    // header record in one call, as the bridge does.
    return new Response(this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: LazyResponse.headersInit(this),
    });
  }
}

/**
 * An SSE Response whose byte stream is built only when someone reads `body`; a bridge that takes
 * {@link responseFrames} writes the frames (strings) itself instead (no Web stream, no re-encoding). Only one of
 * the two may consume the frames. See docs/performance.md, "Hot-path tricks".
 */
class EventStreamResponse extends LazyResponse {
  #options: SseOptions;
  #body: ReadableStream<Uint8Array> | undefined;
  #finished = false;

  constructor(options: SseOptions, init: LazyInit) {
    super(init);
    this.#options = options;
  }

  static framesOf(response: Response): SseOptions | undefined {
    return #options in response ? response.#options : undefined;
  }

  static plainOf(response: Response): Response | undefined {
    return #options in response ? response.full() : undefined;
  }

  stream(): ReadableStream<Uint8Array> {
    this.#body ??= sseStream(this.#options);
    return this.#body;
  }

  /** Whether the real Response carries the whole stream as its text (it was over when the Response was made). */
  static finishedOf(response: Response): boolean {
    return #options in response && response.#finished;
  }

  /**
   * The frames in a real Response: `body`, the readers and `clone()` (a tee) read it. A stream that is already over
   * (its agent finished before anyone read it) is its text, as one body: no `ReadableStream` and no reads of one for
   * the host, the same bytes framed by `Content-Length` (docs/performance.md, "Hono's stream").
   */
  protected makeFull(): Response {
    const text = finishedFrames(this.#options);
    this.#finished = text !== undefined;
    // The header record as it is, as TextResponse does: `@hono/node-server` writes it with `writeHead` instead of
    // filling and walking a `Headers` (docs/performance.md, "Fetch-host streams").
    return new Response(text ?? this.stream(), {
      status: this.status,
      statusText: this.statusText,
      headers: LazyResponse.headersInit(this),
    });
  }
}

/**
 * The headers of a response as a record for a Node bridge (`setHeader`, Koa's `ctx.set`): the lazy responses' own
 * record when no one made their `Headers`, else read from `response.headers` (Set-Cookie values kept apart).
 */
export function responseHeaders(response: Response): Record<string, string | string[]> {
  const record = LazyResponse.recordOf(response);
  if (record) return record;
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  return out;
}

/** A Response with a string body whose text stays readable without consuming the body. */
export function textResponse(text: string | null, init: LazyInit): Response {
  if (text === null) return new Response(null, init);
  return new TextResponse(text, init) as unknown as Response;
}

/** The body text of a response built by {@link textResponse} (`undefined` for streams and foreign responses). */
export const responseText = (response: Response): string | undefined => TextResponse.textOf(response);

export function eventStreamResponse(options: SseOptions, init: LazyInit): Response {
  return new EventStreamResponse(options, init) as unknown as Response;
}

/** The frames of an SSE response from {@link eventStreamResponse}, for a bridge that writes them itself. */
export const responseFrames = (response: Response): SseOptions | undefined => EventStreamResponse.framesOf(response);

/** Whether an SSE response's plain copy ({@link plainResponse}) has the whole stream as a text body (it was over). */
export const finishedEventStream = (response: Response): boolean => EventStreamResponse.finishedOf(response);

/**
 * The same response as a plain `Response` whose body lives in the Response itself. The lazy classes above keep their
 * status, headers and body in a view and expose them through accessors, which Node-based hosts read; Bun, Deno and
 * other native hosts read a Response's internal state instead, which a view has none of.
 */
export const plainResponse = (response: Response): Response =>
  TextResponse.plainOf(response) ?? EventStreamResponse.plainOf(response) ?? response;
