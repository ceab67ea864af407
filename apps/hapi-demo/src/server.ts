import { type A2AHttpHandler, createA2AHandler } from '@a2a/core';
import { type DemoAgentOptions, demoHandlerOptions, demoPlayground } from '@a2a/demo-agent';
import { a2aHapi } from '@a2a/hapi';
import Hapi from '@hapi/hapi';

/** The demo app: the Poet agent as a Hapi plugin, next to an ordinary Hapi route. */
export async function createDemoServer(
  options: DemoAgentOptions & { host?: string; port?: number; handler?: A2AHttpHandler } = {},
) {
  const handler = options.handler ?? createA2AHandler(demoHandlerOptions(options));
  const server = Hapi.server({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  await server.register({ plugin: a2aHapi, options: { handler } });
  // The browser playground: its handler has a basePath (/playground), so the plugin registers exactly its routes.
  await server.register({ plugin: a2aHapi, options: { handler: demoPlayground() } });
  server.route({ method: 'GET', path: '/health', handler: () => ({ ok: true }) });
  return server;
}
