import type { Server } from 'node:http';
import { a2aFastify } from '@a2a/fastify';
import Fastify from 'fastify';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { LISTEN_BACKLOG } from './listen.js';

/** Fastify 5 with the raw JSON route (its own JSON parser) and the @a2a/fastify plugin registered the way a user would. */
export async function startFastify(port: number, host: string, options: BenchOptions): Promise<Server> {
  const app = Fastify();
  app.post(RAW_PATH, async (request) => rawEcho(request.body));
  app.get<{ Querystring: { gc?: string } }>(MEM_PATH, async (request) => memFigures(request.query.gc === '1'));
  await app.register(a2aFastify, { handler: createBenchA2A(options) });
  await app.listen({ port, host, backlog: LISTEN_BACKLOG });
  return app.server;
}
