import { createServer } from 'node:http';
import { type A2AHttpHandler, createA2AHandler } from '@a2a/core';
import { type DemoAgentOptions, demoHandlerOptions, demoPlayground } from '@a2a/demo-agent';
import { a2aKoa } from '@a2a/koa';
import Koa from 'koa';

/** The demo app: the Poet agent as Koa middleware, with a plain Koa route after it. */
export function createDemoServer(options: DemoAgentOptions & { handler?: A2AHttpHandler } = {}) {
  const a2a = options.handler ?? createA2AHandler(demoHandlerOptions(options));
  const app = new Koa();
  app.use(a2aKoa(demoPlayground()) as Koa.Middleware); // the browser playground at /playground
  app.use(a2aKoa(a2a) as Koa.Middleware);
  app.use(async (ctx, next) => {
    if (ctx.path === '/health') ctx.body = { ok: true };
    else await next();
  });
  return createServer(app.callback());
}
