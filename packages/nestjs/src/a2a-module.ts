// @a2a/nestjs: `A2AModule` (`forRoot`, `forRootAsync`): the handler as a provider (made from the options, or given,
// checked with `checkMountable` from `@a2a/core/adapter`), the controller, the platform hooks at init, the handler
// closed at shutdown. Tests: packages/nestjs/test/module.test.ts; `npx vitest run packages/nestjs`.
import { createA2AHandler, type MountableHandler } from '@a2a/core';
import { basePathUnderPrefix, checkMountable } from '@a2a/core/adapter';
import {
  type DynamicModule,
  Inject,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import { A2A_HANDLER, A2A_OPTIONS, a2aController } from './a2a-controller.js';
import { answerCardEarly } from './early-card.js';
import type { A2AModuleAsyncOptions, A2AModuleOptions, A2AModuleRoutes, A2ANestRequest } from './options.js';
import { leaveA2ABodiesUnparsed, routeParserErrors } from './platform-hooks.js';
import { serveA2A } from './serve.js';

const A2A_MOUNT_PATH = Symbol.for('@a2a/nestjs:mount-path');
/** Whether the module's routes have guards of their own (then the card goes through them, on the controller). */
const A2A_ROUTE_GUARDS = Symbol.for('@a2a/nestjs:route-guards');
/** Handlers the module made (and so closes); one passed as `handler` is the app's to close. */
const created = new WeakSet<MountableHandler>();

/**
 * The A2A server as a Nest module: `A2AModule.forRoot({ agentCard, executor, basePath: '/a2a' })`, or
 * `forRootAsync({ imports, inject, useFactory })` to build the options (executor, stores) from your providers.
 * The handler is a provider too (`@Inject(A2A_HANDLER)`), closed on application shutdown.
 */
export class A2AModule implements NestModule, OnModuleInit, OnApplicationShutdown {
  static forRoot<Req extends A2ANestRequest = A2ANestRequest>(
    options: A2AModuleOptions<Req> & A2AModuleRoutes,
  ): DynamicModule {
    const { path, guards, ...rest } = options;
    return A2AModule.forRootAsync({
      ...(path === undefined ? {} : { path }),
      ...(guards ? { guards } : {}),
      useFactory: () => rest,
    });
  }

  static forRootAsync<Req extends A2ANestRequest = A2ANestRequest>(options: A2AModuleAsyncOptions<Req>): DynamicModule {
    return {
      module: A2AModule,
      imports: options.imports ?? [],
      controllers: [a2aController(options)],
      providers: [
        { provide: A2A_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        { provide: A2A_HANDLER, useFactory: handlerFrom, inject: [A2A_OPTIONS] },
        { provide: A2A_MOUNT_PATH, useValue: options.path ?? '' },
        { provide: A2A_ROUTE_GUARDS, useValue: (options.guards?.length ?? 0) > 0 },
      ],
      exports: [A2A_HANDLER],
    };
  }

  constructor(
    private readonly host: HttpAdapterHost,
    private readonly handler: MountableHandler & { close?: () => Promise<void> },
    private readonly options: A2AModuleOptions,
    private readonly mountPath: string,
    private readonly routeGuards: boolean,
    private readonly config: ApplicationConfig,
  ) {}

  /** The card before the router on Express when nothing of Nest's route pipeline applies to it (early-card.ts). */
  configure(consumer: MiddlewareConsumer) {
    if (this.routeGuards || this.host.httpAdapter?.getType() !== 'express') return;
    const { handler, options, mountPath: path, config } = this;
    answerCardEarly(consumer, { handler, options, path, config });
  }

  onModuleInit() {
    const basePath = this.handler.mount?.basePath;
    if (basePath && this.mountPath) {
      throw basePathUnderPrefix('A2AModule', basePath, `leave out path ('${this.mountPath}')`);
    }
    const adapter = this.host.httpAdapter;
    const app = adapter?.getInstance();
    if (adapter?.getType() === 'fastify') leaveA2ABodiesUnparsed(app);
    if (adapter?.getType() === 'express') {
      const parserError = (error: unknown) => ({ error, mountPath: this.mountPath });
      routeParserErrors(app, (error, req, res) => serveA2A(this.handler, this.options, req, res, parserError(error)));
    }
  }

  async onApplicationShutdown() {
    if (created.has(this.handler)) await this.handler.close?.();
  }
}
Inject(HttpAdapterHost)(A2AModule, undefined, 0);
Inject(A2A_HANDLER)(A2AModule, undefined, 1);
Inject(A2A_OPTIONS)(A2AModule, undefined, 2);
Inject(A2A_MOUNT_PATH)(A2AModule, undefined, 3);
Inject(A2A_ROUTE_GUARDS)(A2AModule, undefined, 4);
Inject(ApplicationConfig)(A2AModule, undefined, 5);
Module({})(A2AModule);

function handlerFrom(options: A2AModuleOptions): MountableHandler {
  if ('handler' in options) {
    checkMountable(options.handler, 'A2AModule: the option `handler`');
    return options.handler;
  }
  const { context: _nestContext, trustProxy: _trustProxy, ...handlerOptions } = options;
  const handler = createA2AHandler(handlerOptions);
  created.add(handler);
  return handler;
}
