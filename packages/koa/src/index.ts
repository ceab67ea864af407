import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { A2ARequestContext, MountableHandler } from '@a2a/core';
import { nodeResponseBody, nodeWebRequest, responseFrames, responseHeaders, writeNodeResponse } from '@a2a/core/node';

/** The parts of a Koa 2/3 context the middleware uses; no type package needed. */
export interface KoaContext {
  req: IncomingMessage;
  res: ServerResponse;
  request: { body?: unknown; rawBody?: unknown };
  /** Koa's per-request state (where auth middleware puts the user). */
  // biome-ignore lint/suspicious/noExplicitAny: Koa's own DefaultState is `any`
  state: any;
  /** Proxy-aware (`app.proxy`) scheme and host, and the path as Koa sees it (koa-mount makes it mount-relative). */
  protocol: string;
  host: string;
  originalUrl: string;
  path: string;
  status: number;
  body: unknown;
  compress?: boolean;
  /** `false`: the middleware wrote the response itself. */
  respond?: boolean;
  set(headers: Record<string, string | string[]>): void;
}

export interface A2AKoaOptions {
  /** The A2A caller from your auth (e.g. `ctx.state.user`): `{ user?: { id, scopes? }, tenant? }`. */
  context?: (ctx: KoaContext) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** Where the routes live when Koa does not strip it (plain `app.use`, @koa/router): e.g. '/a2a'. */
  prefix?: string;
}

/** The A2A routes as Koa middleware; other paths go on to `next()`. */
export function a2aKoa(a2a: MountableHandler, options: A2AKoaOptions = {}) {
  const prefix = options.prefix?.replace(/\/$/, '') ?? '';
  return async (ctx: KoaContext, next: () => Promise<unknown>): Promise<void> => {
    if (prefix && ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return void (await next());
    const request = nodeWebRequest(ctx.req, ctx.res, {
      url: `${ctx.protocol}://${ctx.host}${ctx.originalUrl}`,
      rawBody: ctx.request.rawBody, // the exact bytes when a body parser kept them
      parsedBody: ctx.request.body,
    });
    const context = (await options.context?.(ctx)) ?? {};
    const response = await a2a.handle(request, { pathname: ctx.path.slice(prefix.length), context });
    if (!response) return void (await next());
    if (responseFrames(response)) {
      // Events go straight to the socket, batched per turn: a stream body would cost Koa's stream.pipeline (an
      // AbortController and a DOMException per response) and one socket write per event; Koa stays out of it.
      ctx.respond = false;
      void writeNodeResponse(ctx.res, response);
      return;
    }
    ctx.status = response.status;
    ctx.set(responseHeaders(response));
    const content = await nodeResponseBody(response);
    if (content instanceof Readable) ctx.compress = false; // koa-compress would hold events back in its gzip buffer
    ctx.body = content;
  };
}
