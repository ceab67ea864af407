import type { Server } from 'node:http';
import { createNodeHandler } from '@a2a/core/node';
import Hapi from '@hapi/hapi';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';

export async function startHapi(port: number, host: string, options: BenchOptions): Promise<Server> {
  const server = Hapi.server({ port, host });
  const a2a = createNodeHandler(createBenchA2A(options));
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
  server.route({
    method: '*',
    path: '/{any*}',
    options: { payload: { output: 'stream', parse: false } },
    handler: async (request, h) => {
      await a2a(request.raw.req, request.raw.res);
      return h.abandon;
    },
  });
  await server.start();
  return server.listener;
}
