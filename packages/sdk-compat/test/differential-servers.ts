// The servers the differential suite compares: the SDKs' own (1.x and 0.3.14, on Express) and ours, the look-alike
// handlers of this package on every adapter. Each listens on 127.0.0.1, port 0, and is closed by `close()`.
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MountableHandler } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import { a2aFastify } from '@a2a/fastify';
import { a2aHapi } from '@a2a/hapi';
import { a2aHono } from '@a2a/hono';
import { a2aKoa } from '@a2a/koa';
import { A2AModule } from '@a2a/nestjs';
import * as sdk from '@a2a-js/sdk/server';
import * as sdkExpress from '@a2a-js/sdk/server/express';
import * as sdkV03 from '@a2a-js/sdk-v03/server';
import * as sdkV03Express from '@a2a-js/sdk-v03/server/express';
import Hapi from '@hapi/hapi';
import { serve } from '@hono/node-server';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import type { CompatRequestHandler } from '../src/compat-handler.js';
import * as ours from '../src/express.js';
import { DefaultRequestHandler, sdkContext } from '../src/index.js';
import * as oursV03 from '../src/v03/express.js';
import { DefaultRequestHandler as DefaultRequestHandlerV03 } from '../src/v03/index.js';
import { ScribeExecutor, scribeCard } from './fixtures/sdk-agents.js';
import { ScribeV03Executor, scribeV03Card } from './fixtures/sdk-v03-agents.js';
import { close, listen } from './helpers.js';

/** The fixture's Scribe, whose `execute` also throws on `crash …` (how each server reports an agent that fails). */
class Scribe extends ScribeExecutor {
  override async execute(ctx: sdk.RequestContext, bus: sdk.ExecutionEventBus): Promise<void> {
    const [part] = ctx.userMessage.parts;
    if (part?.content?.$case === 'text' && part.content.value.startsWith('crash')) throw new Error('The pen broke');
    return super.execute(ctx, bus);
  }
}

class ScribeV03 extends ScribeV03Executor {
  override async execute(ctx: sdkV03.RequestContext, bus: sdkV03.ExecutionEventBus): Promise<void> {
    const [part] = ctx.userMessage.parts;
    if (part?.kind === 'text' && part.text.startsWith('crash')) throw new Error('The pen broke');
    return super.execute(ctx, bus);
  }
}

/** A card that declares push (the suite creates, reads and deletes push configs of a finished task). */
const withPush = <C extends { capabilities?: object }>(card: C): C => ({
  ...card,
  capabilities: { ...card.capabilities, pushNotifications: true },
});

export interface Running {
  /** Where the card is (`/.well-known/agent-card.json` under it). */
  origin: string;
  close(): Promise<void>;
}

/** The `crash …` steps fail on purpose: our handlers keep the agent's error to themselves (it is in the task). */
const quiet = () => {};

/**
 * The endpoints of every 1.x server, the SDK's included: JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON under `/a2a/rest`, the
 * card at the origin, so one card (naming those URLs) fits all. Our handlers are mounted there by `basePath` and
 * `routes`, the adapters at the root.
 */
const OUR_MOUNT = { basePath: '/a2a', routes: { jsonRpc: '/jsonrpc', rest: '/rest' }, onError: quiet };

const closeAll = (server: Server) => close(server);

/** A `close()` that runs each step after the one before. */
const inOrder =
  (...steps: Array<() => unknown>) =>
  async (): Promise<void> => {
    for (const step of steps) await step();
  };

const closeHandler = (handler: CompatRequestHandler) => () => handler.close({ timeoutMs: 100 });

async function onExpress(
  mount: (app: express.Express, origin: string) => Promise<() => Promise<void>> | (() => Promise<void>),
) {
  const app = express();
  const server = createServer(app);
  const origin = await listen(server);
  const shutdown = await mount(app, origin);
  return { origin, close: inOrder(shutdown, () => closeAll(server)) };
}

/** `@a2a-js/sdk` 1.x's own server, as its README sets it up. */
export const sdkServer = (): Promise<Running> =>
  onExpress((app, origin) => {
    const handler = new sdk.DefaultRequestHandler(
      withPush(scribeCard(origin)) as never,
      new sdk.InMemoryTaskStore(),
      new Scribe(),
      undefined,
      new sdk.InMemoryPushNotificationStore(),
    );
    const userBuilder = sdkExpress.UserBuilder.noAuthentication;
    app.use('/.well-known/agent-card.json', sdkExpress.agentCardHandler({ agentCardProvider: handler }));
    app.use('/a2a/jsonrpc', sdkExpress.jsonRpcHandler({ requestHandler: handler, userBuilder }));
    app.use('/a2a/rest', sdkExpress.restHandler({ requestHandler: handler, userBuilder }));
    return async () => {};
  });

/** Ours, a 1.x app migrated by changing its import specifiers: the Express look-alikes. */
const lookAlikes = (): Promise<Running> =>
  onExpress((app, origin) => {
    const handler = new DefaultRequestHandler(
      withPush(scribeCard(origin)) as never,
      new sdk.InMemoryTaskStore(),
      new Scribe(),
      undefined,
      new sdk.InMemoryPushNotificationStore(),
      ...[undefined, undefined, undefined],
      { onError: quiet },
    );
    const userBuilder = ours.UserBuilder.noAuthentication;
    app.use('/.well-known/agent-card.json', ours.agentCardHandler({ agentCardProvider: handler }));
    app.use('/a2a/jsonrpc', ours.jsonRpcHandler({ requestHandler: handler, userBuilder }));
    app.use('/a2a/rest', ours.restHandler({ requestHandler: handler, userBuilder }));
    return () => handler.close({ timeoutMs: 100 });
  });

/** Our look-alike handler for a 1.x app that moves to one of our adapters: the same card, mounted where it says. */
const scribeHandler = (origin: string) =>
  new DefaultRequestHandler(
    withPush(scribeCard(origin)) as never,
    new sdk.InMemoryTaskStore(),
    new Scribe(),
    undefined,
    new sdk.InMemoryPushNotificationStore(),
    undefined,
    undefined,
    undefined,
    OUR_MOUNT,
  );

/** Our look-alike handler for a 0.3.x app; `mounted`: with the endpoints of the 1.x servers. */
const scribeV03Handler = (jsonRpcUrl: string, restUrl: string, mounted = false) =>
  new DefaultRequestHandlerV03(
    withPush(scribeV03Card(jsonRpcUrl, restUrl)),
    new sdkV03.InMemoryTaskStore(),
    new ScribeV03(),
    undefined,
    new sdkV03.InMemoryPushNotificationStore(),
    undefined,
    undefined,
    mounted ? OUR_MOUNT : { onError: quiet },
  );

type MakeHandler = (origin: string) => CompatRequestHandler;

/**
 * Any of our handlers on each adapter, mounted at the root, the SDK user from `sdkContext()`. Each listens first, so
 * the handler is made with a card that names its origin.
 */
export const ADAPTERS: Record<string, (make: MakeHandler) => Promise<Running>> = {
  express: (make) =>
    onExpress((app, origin) => {
      const handler = make(origin);
      app.use(a2aExpress(handler, { context: sdkContext() }));
      return () => handler.close({ timeoutMs: 100 });
    }),
  fastify: async (make) => {
    let server!: Server;
    const app = Fastify({ serverFactory: (serve) => (server = createServer(serve)) });
    const origin = await listen(server);
    const handler = make(origin);
    await app.register(a2aFastify, { handler, context: sdkContext() });
    await app.ready();
    return {
      origin,
      close: inOrder(
        closeHandler(handler),
        () => closeAll(server),
        () => app.close(),
      ),
    };
  },
  hono: async (make) => {
    const app = new Hono();
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: (request, env) => app.fetch(request, env), port: 0, hostname: '127.0.0.1' }, () =>
        resolve(s as Server),
      );
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const handler = make(origin);
    app.route('/', a2aHono(handler, { context: sdkContext() }));
    return { origin, close: inOrder(closeHandler(handler), () => closeAll(server)) };
  },
  koa: async (make) => {
    const app = new Koa();
    let callback: ReturnType<Koa['callback']> | undefined;
    const server = createServer((req, res) => callback?.(req, res));
    const origin = await listen(server);
    const handler = make(origin);
    app.use(a2aKoa(handler, { context: sdkContext() }));
    callback = app.callback();
    return { origin, close: inOrder(closeHandler(handler), () => closeAll(server)) };
  },
  hapi: async (make) => {
    const listener = createServer();
    const origin = await listen(listener);
    const server = Hapi.server({ listener, autoListen: false });
    const handler = make(origin);
    await server.register({ plugin: a2aHapi, options: { handler, context: sdkContext() } });
    await server.start();
    return {
      origin,
      // Hapi's stop() cannot untrack a listener it did not start: closing the listener is enough.
      close: inOrder(closeHandler(handler), () => closeAll(listener)),
    };
  },
  nestjs: async (make) => {
    const instance = express();
    const server = createServer(instance);
    const origin = await listen(server);
    const handler = make(origin);
    class AppModule {}
    Module({ imports: [A2AModule.forRoot({ handler: handler as MountableHandler, context: sdkContext() })] })(
      AppModule,
    );
    const app = await NestFactory.create(AppModule, new ExpressAdapter(instance), {
      logger: false,
      abortOnError: false,
    });
    await app.init();
    return {
      origin,
      close: inOrder(
        closeHandler(handler),
        () => closeAll(server),
        () => app.close(),
      ),
    };
  },
};

/** Every one of our 1.x servers, by name. */
export const OUR_SERVERS: Record<string, () => Promise<Running>> = {
  'Express look-alikes': lookAlikes,
  ...Object.fromEntries(Object.entries(ADAPTERS).map(([name, start]) => [name, () => start(scribeHandler)])),
};

/** `@a2a-js/sdk` 0.3.14's own server: `A2AExpressApp` (JSON-RPC at the root) and its REST handler under `/rest`. */
export const sdkV03Server = (): Promise<Running> =>
  onExpress((app, origin) => {
    const handler = new sdkV03.DefaultRequestHandler(
      withPush(scribeV03Card(origin, `${origin}/rest`)),
      new sdkV03.InMemoryTaskStore(),
      new ScribeV03(),
      undefined,
      new sdkV03.InMemoryPushNotificationStore(),
    );
    const userBuilder = sdkV03Express.UserBuilder.noAuthentication;
    app.use('/rest', sdkV03Express.restHandler({ requestHandler: handler, userBuilder }));
    new sdkV03Express.A2AExpressApp(handler).setupRoutes(app);
    return async () => {};
  });

/** Our 0.3 servers: the `A2AExpressApp` look-alike (as the SDK's), and 1.x-mounted handlers on other adapters. */
export const OUR_V03_SERVERS: Record<string, () => Promise<Running>> = {
  'v0.3 A2AExpressApp look-alike': () =>
    onExpress((app, origin) => {
      const handler = scribeV03Handler(origin, `${origin}/rest`);
      app.use('/rest', oursV03.restHandler({ requestHandler: handler }));
      new oursV03.A2AExpressApp(handler).setupRoutes(app);
      return () => handler.close({ timeoutMs: 100 });
    }),
  ...Object.fromEntries(
    (['fastify', 'koa'] as const).map((name) => [
      name,
      () => ADAPTERS[name]?.((o) => scribeV03Handler(`${o}/a2a/jsonrpc`, `${o}/a2a/rest`, true)) as Promise<Running>,
    ]),
  ),
};
