import { type A2AHttpHandler, createA2AHandler } from '@a2a/core';
import { demoHandlerOptions } from '@a2a/demo-agent';

// One handler per server process: Next may load this module once per route bundle, and the routes must share it.
const global = globalThis as { a2a?: A2AHttpHandler };

/** The demo agent under `/a2a`, its card also at the origin's `/.well-known/agent-card.json`. */
global.a2a ??= createA2AHandler({ ...demoHandlerOptions({ lineDelayMs: 50 }), basePath: '/a2a' });
export const a2a: A2AHttpHandler = global.a2a;

/** A route handler for every method: core routes by the request's own URL. */
export const handle = (request: Request): Promise<Response> => a2a.fetch(publicRequest(request));

/**
 * `next start` gives route handlers a URL on `localhost` and its own port, whatever the client asked for; the origin
 * the client used is in the X-Forwarded-Host/-Proto headers Next fills from the request (or a proxy set). The card's
 * URLs are built from it.
 */
function publicRequest(request: Request): Request {
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() ?? 'http';
  const url = new URL(request.url);
  if (!host || (url.host === host && url.protocol === `${proto}:`)) return request;
  const { method, headers, body, signal } = request;
  return new Request(`${proto}://${host}${url.pathname}${url.search}`, {
    method,
    headers,
    body,
    signal,
    ...(body ? { duplex: 'half' } : {}),
  } as RequestInit);
}
