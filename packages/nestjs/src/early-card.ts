// @a2a/nestjs: the agent card answered from a Nest middleware, before Express's router and Nest's route pipeline,
// when that pipeline would do nothing to it: no guards (the module's or global), no interceptors, no pre-request
// hooks. The card is a ready answer (core's cached JSON and headers); through the controller it paid the router's
// catch-all match and Nest's route proxy as well (docs/performance.md, "Hapi SendMessage and the NestJS card,
// twenty-second session"). Express platform only. Installed by a2a-module.ts (`configure`). Tests:
// packages/nestjs/test/early-card.test.ts.
import type { MountableHandler } from '@a2a/core';
import { type MiddlewareConsumer, RequestMethod } from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
import type { A2AModuleOptions } from './options.js';
import { type PlatformReply, type PlatformRequest, serveA2A } from './serve.js';

/** The card's default path below the mount (core's, for a handler given without its options). */
const CARD_PATH = '/.well-known/agent-card.json';

/** The global enhancers that run before a route's handler; `getGlobalPreRequestHooks` is Nest 12's. */
type GlobalEnhancers = Pick<
  ApplicationConfig,
  'getGlobalGuards' | 'getGlobalRequestGuards' | 'getGlobalInterceptors' | 'getGlobalRequestInterceptors'
> & { getGlobalPreRequestHooks?: () => unknown[] };

/** Whether any app-wide guard, interceptor or pre-request hook would run on the controller's route. */
function globalPipeline(config: GlobalEnhancers): boolean {
  return (
    config.getGlobalGuards().length > 0 ||
    config.getGlobalRequestGuards().length > 0 ||
    config.getGlobalInterceptors().length > 0 ||
    config.getGlobalRequestInterceptors().length > 0 ||
    (config.getGlobalPreRequestHooks?.().length ?? 0) > 0
  );
}

/**
 * The card paths, as Nest middleware for GET (and HEAD) at the module's `path`: each answers its request when no
 * global enhancer applies (read per request: cheap, and always what the route would see), else it, and any request
 * core does not answer, goes on to the router. The module's own `guards` are checked by the caller (none: installed).
 */
export function answerCardEarly(
  consumer: MiddlewareConsumer,
  at: { handler: MountableHandler; options: A2AModuleOptions; path: string; config: GlobalEnhancers },
): void {
  const { handler, options, path, config } = at;
  const basePath = handler.mount?.basePath;
  // With a base path the root documents are the mount's own; else the card under the module's path.
  const relative = basePath
    ? (handler.mount?.rootPaths ?? [])
    : [('routes' in options ? options.routes?.agentCard : undefined) ?? CARD_PATH];
  for (const pathname of relative) {
    consumer
      .apply(async (req: PlatformRequest & { path?: string }, res: PlatformReply, next: () => void) => {
        // Anything the route would see differently (a trailing slash, other case) is left to it.
        if (globalPipeline(config) || !req.path?.endsWith(pathname)) return next();
        if (!(await serveA2A(handler, options, req, res, undefined, pathname))) next();
      })
      .forRoutes({ path: `${path}${pathname}`, method: RequestMethod.GET });
  }
}
