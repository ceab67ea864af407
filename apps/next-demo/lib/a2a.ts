import { type A2AHttpHandler, createA2AHandler } from '@a2a/core';
import { demoHandlerOptions } from '@a2a/demo-agent';

// One handler per server process: Next may load this module once per route bundle, and the routes must share it.
const global = globalThis as { a2a?: A2AHttpHandler };

/**
 * The demo agent under `/a2a`, its card also at the origin's `/.well-known/agent-card.json` (and the legacy
 * `/.well-known/agent.json`). `next start` hands route handlers a URL on `localhost` and its own port; the origin the
 * client used is in the X-Forwarded-Host/-Proto headers Next fills in, which `trustProxy` builds the card's URLs from.
 */
global.a2a ??= createA2AHandler({ ...demoHandlerOptions({ lineDelayMs: 50 }), basePath: '/a2a', trustProxy: true });
export const a2a: A2AHttpHandler = global.a2a;

/** A route handler for every method: core routes by the request's own URL. */
export const handle = (request: Request): Promise<Response> => a2a.fetch(request);
