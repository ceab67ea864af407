import type { Server } from 'node:http';
import { a2aHapi } from '@a2a/hapi';
import Hapi from '@hapi/hapi';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { listen } from './listen.js';

/** Hapi 21 with the raw JSON route and the @a2a/hapi plugin registered the way a user would. */
export async function startHapi(port: number, host: string, options: BenchOptions): Promise<Server> {
  const server = Hapi.server({ autoListen: false });
  server.route({
    method: 'POST',
    path: RAW_PATH,
    handler: (request) => rawEcho(request.payload),
  });
  server.route({
    method: 'GET',
    path: MEM_PATH,
    handler: (request) => memFigures(request.query.gc === '1'),
  });
  await server.register({ plugin: a2aHapi, options: { handler: createBenchA2A(options) } });
  await server.start();
  return listen(server.listener, port, host);
}
