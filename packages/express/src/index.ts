import type { IncomingMessage, ServerResponse } from 'node:http';
import type { A2ARequestContext, MountableHandler } from '@a2a/core';
import { nodeWebRequest, requestUrl, toWebRequest, writeNodeResponse } from '@a2a/core/node';

/** The parts of Express's request (4.21+ and 5) the adapter reads; no type package needed. */
export interface ExpressRequest extends IncomingMessage {
  originalUrl: string;
  path: string;
  protocol: string;
  hostname?: string | undefined;
  body?: unknown;
  /** Set by auth middleware (Passport & co.). */
  // biome-ignore lint/suspicious/noExplicitAny: whatever the app's auth put there
  user?: any;
  get(name: string): string | undefined;
  /** The Express app (its `trust proxy` setting). */
  app?: { get(setting: string): unknown } | undefined;
}
type Next = (error?: unknown) => void;

export interface A2AExpressOptions {
  /** The A2A caller from your auth (e.g. `req.user`): `{ user?: { id, scopes? }, tenant? }`. */
  context?: (
    req: ExpressRequest,
    res: ServerResponse,
  ) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** `true`: always honour X-Forwarded-Proto/Host. Default: Express's own `trust proxy` setting decides. */
  trustProxy?: boolean;
}

/**
 * The A2A routes as Express middleware: `app.use('/a2a', a2aExpress(a2a))` (also on a Router). The pair is the
 * handler plus an error handler that answers a body parser's JSON/size errors on A2A paths the A2A way.
 */
export function a2aExpress(a2a: MountableHandler, options: A2AExpressOptions = {}) {
  const serve = async (req: ExpressRequest, res: ServerResponse, next: Next, bodyError?: BodyParserError) => {
    try {
      // Without Express's `trust proxy` its protocol and host are the socket's and the Host header: read them directly.
      const url =
        options.trustProxy || !req.app?.get('trust proxy')
          ? requestUrl(req, options.trustProxy === true)
          : `${req.protocol}://${publicHost(req)}${req.originalUrl}`;
      const rawBody = bodyError ? (bodyError.body ?? '') : (req as { rawBody?: unknown }).rawBody;
      const source = { url, rawBody, parsedBody: req.body };
      const request = !bodyError
        ? nodeWebRequest(req, res, source)
        : bodyError.type === 'entity.too.large'
          ? withLength(toWebRequest(req, res, source), bodyError.length)
          : toWebRequest(req, res, source);
      const context = (await options.context?.(req, res)) ?? {};
      const response = await a2a.handle(request, { pathname: req.path, context });
      if (response) return await writeNodeResponse(res, response);
      next(bodyError);
    } catch (error) {
      next(error);
    }
  };
  const handler = (req: ExpressRequest, res: ServerResponse, next: Next) => void serve(req, res, next);
  const parserErrors = (error: unknown, req: ExpressRequest, res: ServerResponse, next: Next) => {
    const e = error as BodyParserError | undefined;
    if (e?.type === 'entity.parse.failed' || e?.type === 'entity.too.large') void serve(req, res, next, e);
    else next(error);
  };
  return [handler, parserErrors] as [typeof handler, typeof parserErrors];
}

/** body-parser's errors: the raw text of an unparsable body, the declared size of an oversized one. */
interface BodyParserError {
  type?: string;
  body?: string;
  length?: number;
}

/** The Host as Express sees it: its `hostname` honours `trust proxy`; the port comes from the header it used. */
function publicHost(req: ExpressRequest): string {
  const host = req.get('host') ?? 'localhost';
  if (!req.hostname || host.split(':')[0] === req.hostname) return host;
  return req.get('x-forwarded-host')?.split(',')[0]?.trim() || req.hostname;
}

/** The body is gone (the parser refused it): keep its declared size so core answers 413. */
function withLength(request: Request, length: number | undefined): Request {
  const headers = new Headers(request.headers);
  if (length !== undefined) headers.set('content-length', String(length));
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}
