// @a2a/nestjs: the controller answering every method at the module's `path` and below, so Nest's guards,
// interceptors and filters run first; each request goes to core through serve.ts (`serveA2A`). Tests:
// packages/nestjs/test/conformance.test.ts and module.test.ts; `npx vitest run packages/nestjs`.
import type { MountableHandler } from '@a2a/core';
import { All, Controller, Inject, Next, Req, Res, SetMetadata, type Type, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { A2AModuleOptions, A2AModuleRoutes } from './options.js';
import { type PlatformReply, type PlatformRequest, serveA2A } from './serve.js';

export const A2A_HANDLER = Symbol.for('@a2a/nestjs:handler');
export const A2A_OPTIONS = Symbol.for('@a2a/nestjs:options');
/** `@nestjs/platform-fastify`'s `RouteConfig` key: marks the A2A routes for the body hook (platform-hooks.ts). */
export const FASTIFY_ROUTE_CONFIG = '__fastify_route_config__';

/**
 * A controller answering every method at `path` and below it, so Nest's guards, interceptors and filters apply to
 * the A2A routes. Paths core does not own go on (Express's `next()`, Fastify's not-found handler). Decorators are
 * applied by hand: the routes' path is only known here, and no decorator metadata is needed. `*path`: Express 5's
 * (path-to-regexp 8) catch-all.
 */
export function a2aController({ path = '', guards = [] }: A2AModuleRoutes): Type {
  class A2AController {
    constructor(
      private readonly handler: MountableHandler,
      private readonly options: A2AModuleOptions,
      host: HttpAdapterHost,
    ) {
      // Routes are read after the controllers are made; Fastify's router writes the catch-all as '*'.
      if (host.httpAdapter?.getType() === 'fastify') All(['', '*'])(proto, 'serve', method);
    }

    async serve(req: PlatformRequest, reply: PlatformReply & { callNotFound?: () => void }, next?: () => void) {
      if (await serveA2A(this.handler, this.options, req, reply)) return;
      if (reply.callNotFound) reply.callNotFound();
      else next?.();
    }
  }
  Inject(A2A_HANDLER)(A2AController, undefined, 0);
  Inject(A2A_OPTIONS)(A2AController, undefined, 1);
  Inject(HttpAdapterHost)(A2AController, undefined, 2);
  const proto = A2AController.prototype;
  const method = Object.getOwnPropertyDescriptor(proto, 'serve') as PropertyDescriptor;
  All(['', '*path'])(proto, 'serve', method);
  SetMetadata(FASTIFY_ROUTE_CONFIG, { a2a: true })(proto, 'serve', method);
  Req()(proto, 'serve', 0);
  Res()(proto, 'serve', 1);
  Next()(proto, 'serve', 2);
  if (guards.length) UseGuards(...guards)(A2AController);
  Controller(path)(A2AController);
  return A2AController;
}
