import { A2AError } from '../errors.js';
import { checkJsonDepth } from './json-depth.js';
import { hasPreparedBody, preparedBody, preparedParsed } from './prepared.js';

export const JSON_MEDIA_TYPES = ['application/json', 'application/a2a+json'];

/** `application/json` or `application/a2a+json`, with any parameters (charset…). */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  // The usual values as they are: no array and strings per request (issue 39, docs/performance.md "Per request").
  if (header === 'application/json' || header === 'application/a2a+json') return true;
  const type = header.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return JSON_MEDIA_TYPES.includes(type);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as UTF-8 text, refusing more than `maxBytes` (413) without buffering past the limit.
 * Invalid UTF-8 is a parse error.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return decode(await bodyBytes(request, maxBytes));
}

/**
 * The body's bytes (a bridge's prepared body or the stream), refusing more than `maxBytes` with PayloadTooLarge
 * without buffering past the limit. Any handler mounted through the adapters should read bodies with it.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  return await bodyBytes(request, maxBytes);
}

/**
 * {@link readBodyBytes} without an async frame of its own: the bytes when the bridge already holds them, else a
 * promise of them; throws (synchronously) what it refuses at once. Its callers are one async frame per body read
 * instead of three nested ones (docs/performance.md, "Hot-path tricks").
 */
function bodyBytes(request: Request, maxBytes: number): Uint8Array | Promise<Uint8Array> {
  const read = startBodyBytes(request, maxBytes);
  return read instanceof Uint8Array ? read : read.then((bytes) => checkedBytes(bytes, maxBytes));
}

/**
 * The body's bytes, or a promise of them still to pass {@link checkedBytes} (`undefined`: the stream ran past
 * `maxBytes`); throws (synchronously) what it refuses at once. The check left to the caller's own `then`: a JSON-RPC
 * call reads its body with one promise and hop less (issue 39, docs/performance.md "Per request").
 */
function startBodyBytes(request: Request, maxBytes: number): Uint8Array | Promise<Uint8Array | undefined> {
  if (preparedParsed(request) !== undefined && preparedBody(request) === undefined) throw new TypeError(PARSED_ONLY);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    // Refused unread: release the stream, so a bridge reading it stops holding the body back (and discards it).
    if (!hasPreparedBody(request)) void request.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }
  const prepared = preparedBody(request);
  if (prepared) return prepared instanceof Uint8Array ? withinLimit(prepared, maxBytes) : prepared;
  return readCapped(request.body, maxBytes);
}

/** A body read by {@link startBodyBytes}, within `maxBytes` (PayloadTooLarge otherwise). */
function checkedBytes(bytes: Uint8Array | undefined, maxBytes: number): Uint8Array {
  if (!bytes) throw tooLarge(maxBytes);
  return withinLimit(bytes, maxBytes);
}

function withinLimit(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

/**
 * Reads a stream (a request's or a fetched response's body) up to `maxBytes`; `undefined` when it is longer: the
 * rest is not read and the stream is cancelled. No stream is an empty body. With a `signal`, its abort ends the read
 * at once (rejecting with its reason), even while a chunk is awaited: a remote that trickles bytes holds nothing once
 * the caller gives up. A stream that fails rejects with its error; either way the rest is cancelled.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const abort = signal && abortOf(signal);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  try {
    for (;;) {
      const { done, value } = await (abort ? Promise.race([reader.read(), abort.promise]) : reader.read());
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) return undefined;
      chunks.push(value);
    }
    complete = true;
  } finally {
    abort?.detach();
    if (!complete) void reader.cancel().catch(() => {});
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size);
}

/** A promise that rejects with the signal's reason when it aborts, and the way to stop listening. */
function abortOf(signal: AbortSignal): { promise: Promise<never>; detach(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
  });
  promise.catch(() => {}); // raced, not awaited: an abort after the read finished is nobody's error
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { promise, detach: () => signal.removeEventListener('abort', onAbort) };
}

/** A request body read as JSON: the text (maybe empty), or the value a framework's parser already made of it. */
export type JsonBody = { text: string } | { parsed: unknown };

/** The body for a JSON route: the parser's value the Node bridge handed over, else the text (limit as above). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  return await jsonBody(request, maxBytes);
}

/**
 * {@link readJsonBody} without an async frame: the body when the bridge already holds it, else a promise of it;
 * throws (synchronously) what it refuses at once (docs/performance.md, "Hot-path tricks").
 */
export function jsonBody(request: Request, maxBytes: number): JsonBody | Promise<JsonBody> {
  const read = startJsonBody(request, maxBytes);
  return read instanceof Promise ? read.then((bytes) => finishJsonBody(bytes, maxBytes)) : read;
}

/**
 * {@link jsonBody} with its last step left to the caller: the body when the bridge already holds it, else a promise
 * of the bytes that {@link finishJsonBody} turns into it, in the caller's own `then` (one promise, closure and hop per
 * request less, issue 39, docs/performance.md "Per request"). Throws (synchronously) what it refuses at once.
 */
export function startJsonBody(request: Request, maxBytes: number): JsonBody | Promise<Uint8Array | undefined> {
  const parsed = preparedParsed(request);
  if (parsed !== undefined) {
    // The parser enforced its own limit; ours still holds for what it declared.
    if (Number(request.headers.get('content-length') ?? Number.NaN) > maxBytes) throw tooLarge(maxBytes);
    return { parsed };
  }
  const bytes = startBodyBytes(request, maxBytes);
  return bytes instanceof Uint8Array ? { text: decode(bytes) } : bytes;
}

/** The body of bytes {@link startJsonBody} promised: PayloadTooLarge past `maxBytes`, ParseError if not UTF-8. */
export function finishJsonBody(bytes: Uint8Array | undefined, maxBytes: number): JsonBody {
  return { text: decode(checkedBytes(bytes, maxBytes)) };
}

/**
 * The JSON value of a non-empty body: -32700 when the text is not JSON; refused when nested deeper than
 * `maxDepth` (InvalidParams naming the field, or `type`, with `prefix` dropped from the path).
 */
export function jsonValue(
  body: JsonBody,
  maxDepth: number,
  type?: Parameters<typeof checkJsonDepth>[2],
  prefix?: string,
): unknown {
  let value: unknown;
  if ('parsed' in body) value = body.parsed;
  else {
    try {
      value = JSON.parse(body.text);
    } catch {
      throw new A2AError('ParseError', 'Invalid JSON payload');
    }
  }
  checkJsonDepth(value, maxDepth, type, prefix);
  return value;
}

const PARSED_ONLY =
  "The request body's bytes are gone: a framework body parser consumed them and left only a parsed value. Mount " +
  'this handler before the parser, or keep the raw bytes (e.g. a `verify` hook setting `req.rawBody`).';

function decode(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new A2AError('ParseError', 'Request body is not valid UTF-8');
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const tooLarge = (maxBytes: number) =>
  new A2AError('PayloadTooLarge', `Request body exceeds the limit of ${maxBytes} bytes`, {
    metadata: { limit: String(maxBytes) },
  });
