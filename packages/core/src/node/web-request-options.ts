import type { IncomingMessage } from 'node:http';
import type { A2AError } from '../errors.js';

// What an adapter knows about a Node request beyond `req` itself (its public URL, what a body parser left), and the
// two questions both request builders (to-web-request.ts, buffered-request.ts) ask of it.

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
   * The host refused the request as sent (a path its router cannot decode, a target it cannot make a URL of: see
   * `requestRefusal`): the handler answers this error on its own paths, as for an invalid Host, without running
   * anything, and leaves other paths to the host.
   */
  refusal?: A2AError | undefined;
}

/**
 * What a body parser left on the object it parses into (connect-style `req`, Koa's `ctx.request`, Fastify's or Nest's
 * request): `rawBody`, the bytes a `verify` hook (or a raw-body plugin) kept, and `body`, the parser's value. The
 * bridge takes the first it can use (see {@link ToWebRequestOptions}).
 */
export function parserLeftovers(parsedInto: object): Pick<ToWebRequestOptions, 'rawBody' | 'parsedBody'> {
  const { rawBody, body } = parsedInto as { rawBody?: unknown; body?: unknown };
  return { rawBody, parsedBody: body };
}

/** The kept raw body when it is one (a string or bytes). */
export function keptRawBody(options: ToWebRequestOptions): Uint8Array | string | undefined {
  const raw = options.rawBody;
  return typeof raw === 'string' || raw instanceof Uint8Array ? raw : undefined;
}

/** A framework's parser read the body (or failed on it) and no raw bytes were kept: the stream is gone. */
export function bodyConsumed(req: IncomingMessage, options: ToWebRequestOptions): boolean {
  if (keptRawBody(options) !== undefined) return false;
  return options.bodyError !== undefined || (req as { _body?: unknown })._body === true || req.readableEnded;
}
