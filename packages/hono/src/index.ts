// @a2a/hono, the Hono 4 middleware and sub-app: Hono's `Context` ⇄ the handler, on every host Hono runs on (Node,
// Bun, Deno, Workers). Hono already holds a Fetch `Request`: it is passed on as it is, or rebuilt for a public URL from
// X-Forwarded-* or a body a middleware read; on `@hono/node-server`, an untouched request goes through core's Node
// bridge without its Node module (`bufferedWebRequest`). Everything comes from `@a2a/core/adapter` (runtime-neutral:
// no `node:` import here, test/runtime-neutral.test.ts checks). `requestSource` gathers what the bridge needs from
// `c`. Node's own refusals: ./node-server.ts. Tests: packages/hono/test/ (`conformance.test.ts` runs
// @a2a/adapter-testsuite on `@hono/node-server`, `fetch-runtimes.test.ts` Bun and Deno); `npx vitest run packages/hono`.
import type { A2ARequestContext, MountableHandler } from '@a2a/core';
import {
  basePathUnderPrefix,
  bufferedWebRequest,
  carryRefusal,
  checkMountable,
  FORBIDDEN_METHODS,
  finishedEventStream,
  forwardedOrigin,
  isPrepared,
  plainResponse,
  responseFrames,
  type ToWebRequestOptions,
} from '@a2a/core/adapter';
import { type Context, type Env, Hono, type MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';

export interface A2AHonoOptions<E extends Env = Env> {
  /** The A2A caller from your auth (e.g. `c.get('jwtPayload')`, `c.var.user`): `{ user?: { id, scopes? }, tenant? }`. */
  context?: (c: Context<E>) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** Honour X-Forwarded-Proto/Host for the card's public URLs (behind a proxy you trust). Default false. */
  trustProxy?: boolean;
}

/**
 * The A2A routes as Hono middleware: `app.use('/a2a/*', a2aMiddleware(a2a))`, or `app.use(a2aMiddleware(a2a))` for a
 * handler with a `basePath`. Paths the handler does not own go on to `next()`.
 */
export function a2aMiddleware<E extends Env = Env>(
  a2a: MountableHandler,
  options: A2AHonoOptions<E> = {},
): MiddlewareHandler<E> {
  checkMountable(a2a, 'a2aMiddleware');
  const basePath = a2a.mount?.basePath;
  let logged = false;
  return async (c, next) => {
    const source = requestSource(c, options.trustProxy === true);
    const request = nodeServerRequest(c, source) ?? (await webRequest(c, source));
    // The mount prefix: as many segments of the path as the matched route has before its `*` (Hono's own `c.req.path`
    // is decoded, which would change an A2A path's meaning: `%3A` read as `:`).
    const path = new URL(request.url).pathname;
    const depth = routePath(c).split('/').length - 2;
    const prefix = depth > 0 ? path.split('/', depth + 1).join('/') : '';
    // Hono tells a middleware where it is mounted only when a request comes: refused then, naming the fix, and
    // logged once, for the user whose first try (the origin's card) 404s without ever reaching this middleware.
    if (basePath && prefix) {
      const refusal = basePathUnderPrefix(
        'a2aHono',
        basePath,
        `mount it at the root (app.route('/', a2aHono(handler)) or app.use(a2aMiddleware(handler))), not under '${prefix}'`,
      );
      if (!logged) console.error(refusal.message);
      logged = true;
      throw refusal;
    }
    const context = (await options.context?.(c)) ?? {};
    const response = await a2a.handle(request, { pathname: path.slice(prefix.length) || '/', context });
    if (!response) return next();
    // Read through Node's request, core answers with the bridge's lazy responses: as plain ones for the host.
    if (!isPrepared(request)) return response;
    if (!responseFrames(response)) return plainResponse(response);
    // An event stream: the agent's events that follow within these microtasks are let in first (node-server would
    // not write before then either: see streamStartInOneWrite). A stream that is over by then becomes a text body,
    // which node-server writes with its head in one call; one that goes on is held for its first chunk.
    await afterMicrotasks();
    const plain = plainResponse(response);
    if (!finishedEventStream(response)) streamStartInOneWrite(c.env);
    return plain;
  };
}

const host = (globalThis as { process?: { nextTick?: (run: () => void) => void } }).process;

/**
 * On `@hono/node-server`, an event stream's status line and headers leave in one socket write with its first chunk:
 * node-server writes the headers on their own (`flushHeaders`) before it reads the body, so the connection's writes
 * are held (`cork`) until the microtasks that answer this request have run (node-server's header write, its read of
 * the frames already there, the end of a stream that is already over), then go as one (docs/performance.md,
 * "Fetch-host streams"). A chunk that comes later (a slow agent's next event, a compressed body) is written as it
 * comes, after the hold; nothing waits for another turn of the event loop.
 */
function streamStartInOneWrite(env: unknown): void {
  const outgoing = nodeBindings(env)?.outgoing as { cork?: unknown; uncork?: unknown } | undefined;
  if (typeof outgoing?.cork !== 'function' || typeof outgoing.uncork !== 'function' || !host?.nextTick) return;
  const held = outgoing as { cork(): void; uncork(): void };
  held.cork();
  // A tick queued from a microtask runs once the microtask queue is empty: after node-server's writes for this answer.
  host.nextTick(() => held.uncork());
}

/**
 * Settles once the microtasks queued so far, and those they queue, have run (a tick queued from a microtask runs when
 * the microtask queue is empty), on Node; at once elsewhere. docs/performance.md, "Hono's stream".
 */
function afterMicrotasks(): Promise<void> | undefined {
  const nextTick = host?.nextTick;
  return nextTick ? new Promise((resolve) => nextTick(resolve)) : undefined;
}

/** The A2A routes as a Hono sub-app: `app.route('/a2a', a2aHono(a2a))`, or `app.route('/', ...)` with a `basePath`. */
export function a2aHono<E extends Env = Env>(a2a: MountableHandler, options: A2AHonoOptions<E> = {}): Hono<E> {
  checkMountable(a2a, 'a2aHono');
  return new Hono<E>().all('*', a2aMiddleware(a2a, options));
}

/** The Node request and response `@hono/node-server` passes as `c.env` (duck-typed: this entry loads no `node:`). */
interface NodeBindings {
  incoming: Parameters<typeof bufferedWebRequest>[0];
  outgoing: Parameters<typeof bufferedWebRequest>[1];
}

function nodeBindings(env: unknown): NodeBindings | undefined {
  const { incoming, outgoing } = (env ?? {}) as Partial<Record<keyof NodeBindings, Record<string, unknown>>>;
  return Array.isArray(incoming?.rawHeaders) &&
    typeof incoming.on === 'function' &&
    typeof outgoing?.writeHead === 'function'
    ? (env as NodeBindings)
    : undefined;
}

/** What the bridge is told: the public URL alone (Hono's body and a bridge's refusal travel in its `Request`). */
type PublicSource = ToWebRequestOptions & { url: string };

/**
 * What core's bridge needs from Hono's context: the request's public URL, from X-Forwarded-Proto/Host with
 * `trustProxy` (core's reading: an http(s) origin or nothing), else the host's own. The body needs no gathering: it
 * is in Hono's `Request` (untouched, or cached by Hono when a middleware read it: see `webRequest`), and so is the
 * refusal of a request `@hono/node-server` could not read (`withA2ARequestErrors`, carried by `carryRefusal`).
 */
function requestSource(c: Context, trustProxy: boolean): PublicSource {
  const raw = c.req.raw;
  return { url: (trustProxy && forwardedUrl(raw)) || raw.url };
}

/**
 * On `@hono/node-server`, the request through core's Node bridge when no one has touched its body yet: no Web body
 * stream, no second Request, headers read from Node's as they are (docs/performance.md, "Hono on Node"). `undefined`
 * (the Web path) on other hosts, for a body a middleware read or began to read, and for bodies the bridge streams.
 */
function nodeServerRequest(c: Context, source: PublicSource): Request | undefined {
  const raw = c.req.raw;
  if (raw.bodyUsed) return undefined;
  if (isPrepared(raw)) return raw; // withA2ARequestErrors built it (a refused Host): already the bridge's
  const node = nodeBindings(c.env);
  if (!node || node.incoming.readableFlowing !== null || node.incoming.readableDidRead) return undefined;
  return bufferedWebRequest(node.incoming, node.outgoing, source);
}

/**
 * The request as core reads it: its body untouched (core reads and limits it), wrapped so that an early answer (413)
 * discards the rest instead of cancelling the host's stream (`@hono/node-server` then drops the connection, answer
 * and all); the bytes Hono kept when a middleware read it first (`c.req.text()`, `arrayBuffer()`; `json()` is
 * re-serialized). With `trustProxy`, the public URL from X-Forwarded-Proto/Host.
 */
async function webRequest(c: Context, source: PublicSource): Promise<Request> {
  const raw = c.req.raw;
  const method = raw.method;
  const hasBody = method !== 'GET' && method !== 'HEAD' && !FORBIDDEN_METHODS.has(method);
  if (source.url === raw.url && (!hasBody || (!raw.bodyUsed && raw.body === null))) return raw;
  const init: RequestInit & { duplex?: 'half' } = { method, headers: raw.headers, signal: raw.signal };
  if (hasBody) {
    const body = raw.bodyUsed ? await c.req.arrayBuffer() : raw.body && drainOnCancel(raw.body);
    if (body) Object.assign(init, { body, duplex: 'half' });
  }
  // Fetch refuses TRACE & co.: the host's own request stands (core answers them 405).
  if (FORBIDDEN_METHODS.has(method)) return raw;
  const request = new Request(source.url, init);
  // An invalid Host refused by withA2ARequestErrors (./node-server.ts) stays refused.
  return carryRefusal(raw, request);
}

const DRAIN_LIMIT = 16 * 1024 * 1024;

function drainOnCancel(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      for (let seen = 0; seen <= DRAIN_LIMIT; ) {
        const chunk = await reader.read().catch(() => undefined);
        if (!chunk?.value) return;
        seen += chunk.value.byteLength;
      }
      await reader.cancel().catch(() => {});
    },
  });
}

/** The request's URL on the origin X-Forwarded-Proto/Host name (core's reading: an http(s) origin or nothing). */
function forwardedUrl(raw: Request): string | undefined {
  const url = new URL(raw.url);
  const origin = forwardedOrigin(raw.headers, url.origin);
  return origin === undefined ? undefined : `${origin}${url.pathname}${url.search}`;
}
