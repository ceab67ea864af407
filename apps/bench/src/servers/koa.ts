import { createServer, type Server } from 'node:http';
import { a2aKoa } from '@a2a/koa';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { listen } from './listen.js';

/** Koa 3 with the raw JSON route and @a2a/koa mounted the way a user would. */
export function startKoa(port: number, host: string, options: BenchOptions): Promise<Server> {
  const app = new Koa();
  const parseJson = bodyParser();
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
  app.use(a2aKoa(createBenchA2A(options)) as Koa.Middleware);
  return listen(createServer(app.callback()), port, host);
}
