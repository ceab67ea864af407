// @a2a/express, the Express 4/5 adapter: Express's `req`/`res` ⇄ a Fetch `Request`/`Response` for the handler,
// through core's Node bridge (`@a2a/core/node`: `nodeWebRequest`, `writeNodeResponse`, `writeNodeResponseAfterBurst`
// for event streams); its setup checks come from `@a2a/core/adapter`. `requestSource` gathers what the bridge needs
// from Express's request (the public URL, what the body parser left). Tests: packages/express/test/
// (`conformance.test.ts` runs @a2a/adapter-testsuite on Express 4 and 5); `npx vitest run packages/express`.
import type { A2ARequestContext, MountableHandler } from '@a2a/core';
import { basePathUnderPrefix, checkMountable, type ToWebRequestOptions } from '@a2a/core/adapter';
import {
  isBodyParserError,
  joinRequestUrl,
  nodeWebRequest,
  parserLeftovers,
  requestUrl,
  responseFrames,
  writeNodeResponse,
  writeNodeResponseAfterBurst,
} from '@a2a/core/node';
import type {
  ErrorRequestHandler,
  Request as ExpressRequest,
  Response as ExpressResponse,
  NextFunction,
  RequestHandler,
} from 'express';

/** Express's request and response (from `@types/express`, 4 or 5), as the `context` hook receives them. */
export type { ExpressRequest, ExpressResponse };

/**
 * `Req`/`Res`: the types your `context` hook declares (`express.Request` by default, with whatever your auth and
 * session packages add to it, e.g. `req.user`, `req.session`; or your own subtype).
 */
export interface A2AExpressOptions<
  Req extends ExpressRequest = ExpressRequest,
  Res extends ExpressResponse = ExpressResponse,
> {
  /** The A2A caller from your auth (e.g. `req.user`): `{ user?: { id, scopes? }, tenant? }`. */
  context?: (req: Req, res: Res) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** `true`: always honour X-Forwarded-Proto/Host. Default: Express's own `trust proxy` setting decides. */
  trustProxy?: boolean;
}

/**
 * The A2A routes as Express middleware: `app.use(a2aExpress(a2a))` for a handler with a `basePath` (card at the
 * origin's `/.well-known/`), or `app.use('/a2a', a2aExpress(a2a))` for a prefix-only mount (also on a Router). The
 * pair is the handler plus an error handler that answers a body parser's JSON/size errors on A2A paths the A2A way.
 */
export function a2aExpress<Req extends ExpressRequest = ExpressRequest, Res extends ExpressResponse = ExpressResponse>(
  a2a: MountableHandler,
  options: A2AExpressOptions<Req, Res> = {},
): [RequestHandler, ErrorRequestHandler] {
  checkMountable(a2a, 'a2aExpress');
  const basePath = a2a.mount?.basePath;
  let logged = false;
  const serve = async (req: ExpressRequest, res: ExpressResponse, next: NextFunction, bodyError?: unknown) => {
    // Express tells a middleware where it is mounted only when a request comes: refused then, naming the fix, and
    // logged once, for the user whose first try (the origin's card) 404s without ever reaching this middleware.
    if (basePath && req.baseUrl) {
      const refusal = basePathUnderPrefix(
        'a2aExpress',
        basePath,
        `mount it at the app's root (app.use(a2aExpress(handler)), not under '${req.baseUrl}')`,
      );
      if (!logged) console.error(refusal.message);
      logged = true;
      return next(refusal);
    }
    try {
      const request = nodeWebRequest(req, res, requestSource(req, options.trustProxy, bodyError));
      const context = (await options.context?.(req as Req, res as Res)) ?? {};
      const response = await a2a.handle(request, { pathname: req.path, context });
      if (response) {
        // An event stream is written after the agent's burst: one over by then is one body, one socket write
        // (docs/performance.md, "Streams as one write on Express, Fastify and the Node bridge").
        if (responseFrames(response)) return writeNodeResponseAfterBurst(res, response);
        // Returned, not awaited (it never rejects): this frame, which holds the request and its body, ends now.
        return writeNodeResponse(res, response);
      }
      next(bodyError);
    } catch (error) {
      next(error);
    }
  };
  const handler: RequestHandler = (req, res, next) => void serve(req, res, next);
  const parserErrors: ErrorRequestHandler = (error, req, res, next) => {
    if (isBodyParserError(error)) void serve(req, res, next, error);
    else next(error);
  };
  return [handler, parserErrors];
}

/**
 * What core's bridge needs from Express's request: its public URL, and the body as the parser left it: the raw bytes
 * a `verify` hook kept, else its parsed value, or the error it raised (core answers each the A2A way; the parsed
 * value is read as is, never re-serialized).
 */
function requestSource(req: ExpressRequest, trustProxy: boolean | undefined, bodyError: unknown): ToWebRequestOptions {
  // Without Express's `trust proxy` its protocol and host are the socket's and the Host header: read them directly.
  const url =
    trustProxy || !req.app?.get('trust proxy')
      ? requestUrl(req, trustProxy === true)
      : joinRequestUrl(req.protocol, publicHost(req), req.originalUrl);
  return { url, ...parserLeftovers(req), bodyError };
}

/** The Host as Express sees it: its `hostname` honours `trust proxy`; the port comes from the header it used. */
function publicHost(req: ExpressRequest): string {
  const host = req.get('host') ?? 'localhost';
  if (!req.hostname || host.split(':')[0] === req.hostname) return host;
  return req.get('x-forwarded-host')?.split(',')[0]?.trim() || req.hostname;
}
