import type { MountableHandler } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import type express from 'express';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { type SdkUserBuilder, sdkContext } from './sdk-context.js';

const CARD_PATH = '/.well-known/agent-card.json';

/** A JSON-RPC call is a POST to the mount point itself; everything else there is HTTP+JSON. */
export const isJsonRpcCall = (req: express.Request): boolean => req.method === 'POST' && req.path === '/';

/** What the look-alikes return: a middleware and the error middleware that answers a body parser's errors. */
export type CompatMiddleware = [RequestHandler, ErrorRequestHandler];

/**
 * Our handler through `@a2a/express` (trust proxy, body parser leftovers, errors as A2A errors), for the requests
 * `owns` accepts; the others go on to `next()`. A pair, as `app.use` takes it: Express hands a parser's error only to
 * error middleware, which a Router is not.
 */
export function mountedRouter(
  handler: MountableHandler,
  userBuilder: SdkUserBuilder<express.Request> | undefined,
  owns: (req: express.Request) => boolean,
): CompatMiddleware {
  const [serve, parserErrors] = a2aExpress(handler, { context: sdkContext(userBuilder) });
  return [
    (req, res, next) => (owns(req) ? serve(req, res, next) : next()),
    (error, req, res, next) => (owns(req) ? parserErrors(error, req, res, next) : next(error)),
  ];
}

/**
 * The handler's own card route (ETag, 304, the v0.3 fields for older clients) wherever the Router is mounted: the
 * SDK mounts its card handler at the card's path itself, so the request is handed on as a request for that path.
 */
export function cardRouter(handler: MountableHandler): RequestHandler {
  const [serve] = a2aExpress(handler);
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || (req.path !== '/' && req.path !== '')) return next();
    const query = req.url.indexOf('?');
    req.url = CARD_PATH + (query < 0 ? '' : req.url.slice(query));
    // A handler with a `basePath` serves its card at the origin's root by itself: seen from the root, it finds it.
    if (handler.mount?.basePath) req.baseUrl = '';
    serve(req, res, next);
  };
}
