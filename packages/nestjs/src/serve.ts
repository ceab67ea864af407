// @a2a/nestjs: one request through core, on either platform. The platform's request and reply (Express's own, or
// Fastify's wrappers around Node's) ⇄ a Fetch `Request`/`Response` for the handler, through core's Node bridge
// (`@a2a/core/node`: `nodeWebRequest`, `writeNodeResponse`, `writeNodeResponseAfterBurst` for event streams);
// `requestSource` gathers what the bridge needs. Called by the controller (a2a-controller.ts) and the Express
// parser-error hook (a2a-module.ts, platform-hooks.ts). Tests: packages/nestjs/test/ (`conformance.test.ts` runs
// @a2a/adapter-testsuite on both platforms); `npx vitest run packages/nestjs`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MountableHandler } from '@a2a/core';
import type { ToWebRequestOptions } from '@a2a/core/adapter';
import {
  nodeWebRequest,
  parserLeftovers,
  requestUrl,
  responseFrames,
  writeNodeResponse,
  writeNodeResponseAfterBurst,
} from '@a2a/core/node';
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
  /** The path below the mount when the caller knows it (the early card's middleware, early-card.ts). */
  pathname?: string,
): Promise<boolean> {
  const raw = req.raw ?? (req as unknown as IncomingMessage);
  const res = reply.raw ?? (reply as unknown as ServerResponse);
  const source = requestSource(req, raw, options, parserError?.error);
  const request = nodeWebRequest(raw, res, source);
  const context = (await (options.context ?? defaultContext)(req)) ?? {};
  const response = await handler.handle(request, {
    pathname: pathname ?? mountRelative(source.url, parserError?.mountPath ?? routePrefix(req)),
    context,
  });
  if (!response) return false;
  reply.hijack?.();
  // An event stream is written after the agent's burst (one over by then is one body, one socket write:
  // docs/performance.md, "Streams as one write on Express, Fastify and the Node bridge"), not awaited.
  if (responseFrames(response)) writeNodeResponseAfterBurst(res, response);
  else await writeNodeResponse(res, response);
  return true;
}

/**
 * What core's bridge needs from the platform's request: the public URL (from Node's request, X-Forwarded-* with
 * `trustProxy`), and the body as the platform's parser left it: the raw bytes kept (`rawBody: true` on Nest's
 * Express platform), else its parsed value, or the error it raised (Express); untouched when none ran (Fastify's
 * A2A routes leave it unparsed, platform-hooks.ts).
 */
function requestSource(
  req: PlatformRequest,
  raw: IncomingMessage,
  options: A2AModuleOptions,
  bodyError: unknown,
): ToWebRequestOptions & { url: string } {
  return { url: requestUrl(raw, options.trustProxy === true), ...parserLeftovers(req), bodyError };
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
