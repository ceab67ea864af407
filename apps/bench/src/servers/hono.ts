import type { Server } from 'node:http';
import { a2aHono } from '@a2a/hono';
import { withA2ARequestErrors } from '@a2a/hono/node-server';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { listen } from './listen.js';

/**
 * Hono 4 on @hono/node-server with the raw JSON route (`c.req.json()`) and @a2a/hono mounted the way a user would, its
 * README's `withA2ARequestErrors` included (the raw route pays it too: it wraps the server).
 */
export function startHono(port: number, host: string, options: BenchOptions): Promise<Server> {
  const app = new Hono();
  app.post(RAW_PATH, async (c) => c.json(rawEcho(await c.req.json())));
  app.get(MEM_PATH, (c) => c.json(memFigures(c.req.query('gc') === '1')));
  app.route('/', a2aHono(createBenchA2A(options)));
  return listen(createAdaptorServer(withA2ARequestErrors({ fetch: app.fetch })) as Server, port, host);
}
