import { nodeWebRequest, requestUrl, writeNodeResponse } from '@a2a/core/node';
import { a2aExpress } from '@a2a/express';
import express, { type RequestHandler } from 'express';
import type { CompatRequestHandler } from './compat-handler.js';
import { type SdkUserBuilder, sdkContext } from './sdk-context.js';

const CARD_PATH = '/.well-known/agent-card.json';

/** A JSON-RPC call is a POST to the mount point itself; everything else there is HTTP+JSON. */
export const isJsonRpcCall = (req: express.Request): boolean => req.method === 'POST' && req.path === '/';

/** Our handler behind an Express Router, for the requests `owns` accepts (the others go on to `next()`). */
export function mountedRouter(
  handler: CompatRequestHandler,
  userBuilder: SdkUserBuilder<express.Request> | undefined,
  owns: (req: express.Request) => boolean,
): RequestHandler {
  const [serve, parserErrors] = a2aExpress(handler, { context: sdkContext(userBuilder) });
  const router = express.Router();
  router.use((req, res, next) => (owns(req) ? serve(req, res, next) : next()));
  router.use(parserErrors);
  return router;
}

/** The handler's own card route (ETag, 304, the v0.3 fields for older clients) wherever the Router is mounted. */
export function cardRouter(handler: CompatRequestHandler): RequestHandler {
  const router = express.Router();
  router.get('/', async (req, res, next) => {
    try {
      const request = nodeWebRequest(req, res, { url: requestUrl(req, false) });
      const response = await handler.handle(request, { pathname: CARD_PATH });
      if (response) writeNodeResponse(res, response);
      else next();
    } catch (error) {
      next(error);
    }
  });
  return router;
}
