import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MountableHandler } from '@a2a/core';
import { nodeWebRequest, requestUrl, writeNodeResponse } from '@a2a/core/node';
import { type A2AModuleOptions, type A2ANestRequest, callerFromUser } from './options.js';

/** The platform's request and reply as a route handler gets them (Express: Node's own; Fastify: wrappers). */
export interface PlatformRequest extends A2ANestRequest {
  raw?: IncomingMessage;
  body?: unknown;
  rawBody?: unknown;
  /** Express's matched route / Fastify's route options: where the mount prefix is read. */
  route?: { path?: unknown };
  routeOptions?: { url?: unknown };
}
export interface PlatformReply {
  raw?: ServerResponse;
  hijack?: () => void;
}

/**
 * One request through core: the request as Node's, its body as the platform's parser left it (raw bytes, parsed
 * value or parser error; untouched when none ran), the caller from the guarded request. `false`: not an A2A route.
 */
export async function serveA2A(
  handler: MountableHandler,
  options: A2AModuleOptions,
  req: PlatformRequest,
  reply: PlatformReply,
  parserError?: { error: unknown; mountPath: string },
): Promise<boolean> {
  const raw = req.raw ?? (req as unknown as IncomingMessage);
  const res = reply.raw ?? (reply as unknown as ServerResponse);
  const url = requestUrl(raw, options.trustProxy === true);
  const source = { url, rawBody: req.rawBody, parsedBody: req.body, bodyError: parserError?.error };
  const request = nodeWebRequest(raw, res, source);
  const context = (await (options.context ?? defaultContext)(req)) ?? {};
  const response = await handler.handle(request, {
    pathname: mountRelative(url, parserError?.mountPath ?? routePrefix(req)),
    context,
  });
  if (!response) return false;
  reply.hijack?.();
  await writeNodeResponse(res, response);
  return true;
}

const defaultContext = (req: A2ANestRequest) => callerFromUser(req.user);

/** The matched route's literal start ('/api/a2a' of '/api/a2a/*path'): the mount prefix. */
function routePrefix(req: PlatformRequest): string {
  const pattern = req.routeOptions?.url ?? req.route?.path;
  return typeof pattern === 'string' ? pattern.replace(/\/?[*{].*$/, '').replace(/\/$/, '') : '';
}

/** The path after the prefix; a module `path` (no route matched yet) ends the prefix where it first occurs. */
function mountRelative(url: string, prefix: string): string {
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2)).split('?')[0] ?? '/';
  const at = prefix ? path.toLowerCase().indexOf(prefix.toLowerCase()) : 0;
  return at < 0 ? path : path.slice(at + prefix.length) || '/';
}
