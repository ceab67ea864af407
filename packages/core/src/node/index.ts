import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkMountable } from '../http/check-mountable.js';
import type { A2ARequestContext, MountableHandler } from '../http/mountable-handler.js';
import { responseFrames } from '../http/prepared.js';
import { nodeWebRequest } from './node-web-request.js';
import type { ToWebRequestOptions } from './web-request-options.js';
import { writeNodeResponse, writeNodeResponseAfterBurst } from './write-node-response.js';

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
export { writeNodeResponse, writeNodeResponseAfterBurst } from './write-node-response.js';

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
  // Not an async function without a context hook: the handler's promise with the answer written in its `then` (an
  // async frame per request less, docs/performance.md "Hot-path tricks").
  return (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> => {
    if (options.context) return listenWithContext(a2a, options, req, res, next);
    let handled: Promise<Response | undefined>;
    try {
      const request = nodeWebRequest(req, res, bridgeOptions(req, options));
      handled = a2a.handle(request, handleOptions(req, {}));
    } catch (error) {
      return listenFailed(error, res, next);
    }
    return handled.then(
      (response) => answer(response, res, next),
      (error: unknown) => failed(error, res, next),
    );
  };
}

/** The listener with a context hook to await first. */
async function listenWithContext(
  a2a: MountableHandler,
  options: NodeHandlerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
): Promise<void> {
  try {
    const request = nodeWebRequest(req, res, bridgeOptions(req, options));
    const context = (await options.context?.(req)) ?? {};
    return await answer(await a2a.handle(request, handleOptions(req, context)), res, next);
  } catch (error) {
    return failed(error, res, next);
  }
}

/**
 * What the bridge is told of a request: {@link parserLeftovers}'s fields written out, one object per request instead
 * of two and a spread (issue 39, docs/performance.md "Per request").
 */
function bridgeOptions(req: IncomingMessage, options: NodeHandlerOptions): ToWebRequestOptions {
  const { rawBody, body } = req as { rawBody?: unknown; body?: unknown };
  return { trustProxy: options.trustProxy ?? false, rawBody, parsedBody: body };
}

function handleOptions(
  req: IncomingMessage,
  context: A2ARequestContext,
): { context: A2ARequestContext; pathname?: string } {
  // Under a connect-style mount, `req.url` is the path relative to the mount point.
  const mounted = (req as { originalUrl?: string }).originalUrl !== undefined;
  return mounted ? { context, pathname: new URL(req.url ?? '/', 'http://x').pathname } : { context };
}

/** Writes the handler's answer (or passes on, or 404s); what throws here is handled as the handler's failure. */
function answer(
  response: Response | undefined,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
): Promise<void> | undefined {
  try {
    if (response) {
      // An event stream is written after the agent's burst: one over by then is one body, one socket write
      // (docs/performance.md, "Streams as one write on Express, Fastify and the Node bridge").
      if (responseFrames(response)) return void writeNodeResponseAfterBurst(res, response);
      // Returned, not awaited (it never rejects): the caller's frame, which holds the request and its body, ends now.
      return writeNodeResponse(res, response);
    }
    if (next) return next() as unknown as Promise<void> | undefined;
    res.statusCode = 404;
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end('Not Found');
    return undefined;
  } catch (error) {
    return failed(error, res, next);
  }
}

/** {@link failed} as the listener's promise (a `next` that throws rejects it, as an async listener's would). */
async function listenFailed(
  error: unknown,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
): Promise<void> {
  return failed(error, res, next);
}

function failed(
  error: unknown,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
): Promise<void> | undefined {
  if (next) return next(error) as unknown as Promise<void> | undefined;
  if (!res.headersSent) res.statusCode = 500;
  res.end();
  return undefined;
}
