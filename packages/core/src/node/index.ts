import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkMountable } from '../http/check-mountable.js';
import type { A2ARequestContext, MountableHandler } from '../http/mountable-handler.js';
import { nodeWebRequest } from './node-web-request.js';
import { parserLeftovers } from './web-request-options.js';
import { writeNodeResponse } from './write-node-response.js';

export { checkMountable } from '../http/check-mountable.js';
export { responseFrames, responseHeaders, responseText } from '../http/prepared.js';
export { drainRequest } from './drain-request.js';
export { nodeWebRequest } from './node-web-request.js';
export { isBodyParserError, isZlibError } from './parser-error.js';
export { type AddressResolver, createGuardedFetch, createNodePushSender, nodeHostResolver } from './push-transport.js';
export { joinRequestUrl, requestUrl } from './request-target.js';
export { nodeResponseBody } from './response-body.js';
export { toWebRequest } from './to-web-request.js';
export { parserLeftovers, type ToWebRequestOptions } from './web-request-options.js';
export { writeNodeResponse } from './write-node-response.js';

export interface NodeHandlerOptions {
  /** Caller identity from the Node request (e.g. verify a bearer token). */
  context?: (req: IncomingMessage) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** Build public URLs from X-Forwarded-Proto / X-Forwarded-Host. */
  trustProxy?: boolean;
}

/**
 * A `node:http` request listener serving the A2A handler (or any `MountableHandler`); non-A2A paths get a plain 404, or go to `next` when given
 * (connect-style). Never throws.
 */
export function createNodeHandler(a2a: MountableHandler, options: NodeHandlerOptions = {}) {
  checkMountable(a2a, 'createNodeHandler');
  return async (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> => {
    try {
      const trustProxy = options.trustProxy ?? false;
      const request = nodeWebRequest(req, res, { trustProxy, ...parserLeftovers(req) });
      const context = (await options.context?.(req)) ?? {};
      // Under a connect-style mount, `req.url` is the path relative to the mount point.
      const mounted = (req as { originalUrl?: string }).originalUrl !== undefined;
      const pathname = mounted ? new URL(req.url ?? '/', 'http://x').pathname : undefined;
      const response = await a2a.handle(request, pathname === undefined ? { context } : { context, pathname });
      // Returned, not awaited (it never rejects): this frame, which holds the request and its body, ends now rather
      // than when a stream does.
      if (response) return writeNodeResponse(res, response);
      if (next) return next();
      res.statusCode = 404;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('Not Found');
    } catch (error) {
      if (next) return next(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  };
}
