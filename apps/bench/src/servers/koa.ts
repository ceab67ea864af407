import { createServer, type Server } from 'node:http';
import { createNodeHandler } from '@a2a/core/node';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';

export function startKoa(port: number, host: string, options: BenchOptions): Promise<Server> {
  const app = new Koa();
  const parseJson = bodyParser();
  const a2a = createNodeHandler(createBenchA2A(options));
  app.use(async (ctx, next) => {
    if (ctx.path === RAW_PATH && ctx.method === 'POST') {
      return parseJson(ctx, async () => {
        ctx.body = rawEcho(ctx.request.body);
      });
    }
    if (ctx.path === MEM_PATH && ctx.method === 'GET') {
      ctx.body = memFigures(ctx.query.gc === '1');
      return;
    }
    return next();
  });
  app.use(async (ctx) => {
    ctx.respond = false;
    await a2a(ctx.req, ctx.res);
  });
  const server = createServer(app.callback());
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}
