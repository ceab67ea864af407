// @a2a/koa, the Koa 2/3 adapter: Koa's `ctx` ⇄ a Fetch `Request`/`Response` for the handler, through core's Node
// bridge (`@a2a/core/node`: `nodeWebRequest`, and `nodeResponseBody`/`responseHeaders` for the answers Koa sends, or
// `writeNodeResponseAfterBurst` for event streams); its setup checks come from `@a2a/core/adapter`. `requestSource`
// gathers what the bridge needs from `ctx` (the public URL, what the body parser left or the error it raised). Tests:
// packages/koa/test/ (`conformance.test.ts` runs @a2a/adapter-testsuite); `npx vitest run packages/koa`.
import { Readable } from 'node:stream';
import type { A2ARequestContext, MountableHandler } from '@a2a/core';
import { basePathUnderPrefix, checkMountable, type ToWebRequestOptions } from '@a2a/core/adapter';
import {
  joinRequestUrl,
  nodeResponseBody,
  nodeWebRequest,
  responseFrames,
  responseHeaders,
  responseText,
  writeNodeResponseAfterBurst,
} from '@a2a/core/node';
import type { DefaultContext, DefaultState, Middleware, ParameterizedContext } from 'koa';

const BODY_ERROR = Symbol.for('@a2a/koa/bodyError');

interface BodyParsed {
  body?: unknown;
  rawBody?: unknown;
  [BODY_ERROR]?: unknown;
}

/** Koa's context (from `@types/koa`, 2 or 3), as the `context` hook receives it. */
export type KoaContext<StateT = DefaultState, ContextT = DefaultContext> = ParameterizedContext<StateT, ContextT>;

/**
 * `StateT`/`ContextT`: your app's (`new Koa<StateT, ContextT>()`), inferred from the `context` hook you write, so
 * `ctx.state.user`, `ctx.cookies`, `ctx.session` are typed as in the rest of your app.
 */
export interface A2AKoaOptions<StateT = DefaultState, ContextT = DefaultContext> {
  /** The A2A caller from your auth (e.g. `ctx.state.user`): `{ user?: { id, scopes? }, tenant? }`. */
  context?: (
    ctx: ParameterizedContext<StateT, ContextT>,
  ) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /**
   * A prefix-only mount when Koa does not strip it (plain `app.use`, @koa/router): e.g. '/a2a'. Not needed (leave it
   * out) for a handler with a `basePath`, which also serves the card at the origin root.
   */
  prefix?: string;
}

/**
 * For a body parser's `onError` (`bodyParser({ onError: keepBodyError })`): keeps the error it raised so the A2A
 * middleware answers it the A2A way (413 over its limit, -32700, 415) instead of Koa's plain-text error. Paths that
 * are not A2A routes get the error thrown as the parser would have. Not needed when `a2aKoa` comes before the parser.
 */
export function keepBodyError(error: unknown, ctx: { request: object }): void {
  (ctx.request as BodyParsed)[BODY_ERROR] = error;
}

/** The A2A routes as Koa middleware; other paths go on to `next()`. */
export function a2aKoa<StateT = DefaultState, ContextT = DefaultContext>(
  a2a: MountableHandler,
  options: A2AKoaOptions<StateT, ContextT> = {},
): Middleware<StateT, ContextT> {
  checkMountable(a2a, 'a2aKoa');
  const prefix = options.prefix?.replace(/\/$/, '') ?? '';
  const basePath = a2a.mount?.basePath;
  if (basePath && prefix) {
    throw basePathUnderPrefix('a2aKoa', basePath, `leave out the prefix option ('${prefix}')`);
  }
  const contextOf = options.context;
  return async (ctx, next): Promise<void> => {
    const bodyError = (ctx.request as BodyParsed)[BODY_ERROR];
    if (prefix && ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return notOurs(bodyError, next);
    const request = nodeWebRequest(ctx.req, ctx.res, requestSource(ctx, bodyError));
    // No hook, no await: each one is a promise and a turn of the microtask queue per request (docs/performance.md,
    // "Hot-path tricks": framework answers without extra turns).
    const context = contextOf ? ((await contextOf(ctx)) ?? {}) : {};
    const response = await a2a.handle(request, { pathname: ctx.path.slice(prefix.length), context });
    if (!response) return notOurs(bodyError, next);
    if (responseFrames(response)) {
      // Events go straight to the socket, batched per turn: a stream body would cost Koa's stream.pipeline (an
      // AbortController and a DOMException per response) and one socket write per event; Koa stays out of it. A stream
      // the agent has finished by the end of its burst is one body (docs/performance.md, "Koa and Hapi streams").
      ctx.respond = false;
      writeNodeResponseAfterBurst(ctx.res, response);
      return;
    }
    ctx.status = response.status;
    setHeaders(ctx, responseHeaders(response));
    // Core's ready string read synchronously (`nodeResponseBody` is async for the rare Web body): no await for a card
    // or a JSON answer.
    const text = response.status === 204 || response.status === 304 ? undefined : responseText(response);
    const content = text ?? (await nodeResponseBody(response));
    if (content instanceof Readable) (ctx as { compress?: boolean }).compress = false; // koa-compress would hold events back
    // A HEAD answer has no body: leave ctx.body unset, as Koa 2 would turn a null one into 204.
    if (content != null || ctx.method !== 'HEAD') ctx.body = content;
  };
}

/** A path the handler does not own: the body parser's kept error thrown as it would have been, else `next()`. */
async function notOurs(bodyError: unknown, next: () => Promise<unknown>): Promise<void> {
  if (bodyError !== undefined) throw bodyError;
  await next();
}

/**
 * The answer's header record onto Node's response, as `ctx.set(record)` would (Koa's `set` is `res.setHeader` per
 * field after its checks, one delegated call each): the record's values are strings or string arrays already.
 */
function setHeaders(ctx: KoaContext, headers: Record<string, string | string[]>): void {
  const res = ctx.res;
  if (res.headersSent) return;
  for (const name in headers) res.setHeader(name, headers[name] as string | string[]);
}

/**
 * What core's bridge needs from Koa's `ctx`: the public URL (`app.proxy` decides, through `ctx.protocol`/`ctx.host`),
 * and the body as a parser left it on `ctx.request`: the exact bytes it kept, its parsed value, or the error it raised
 * (kept by `keepBodyError`; then its bytes are not the body).
 */
function requestSource(ctx: KoaContext, bodyError: unknown): ToWebRequestOptions {
  const parsed = ctx.request as BodyParsed;
  return {
    url: joinRequestUrl(ctx.protocol, ctx.host, ctx.originalUrl),
    rawBody: bodyError === undefined ? parsed.rawBody : undefined,
    parsedBody: parsed.body,
    bodyError,
  };
}
