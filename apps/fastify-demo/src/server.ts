import { type A2AHttpHandler, createA2AHandler } from '@a2a/core';
import { type DemoAgentOptions, demoHandlerOptions, demoPlayground } from '@a2a/demo-agent';
import { a2aFastify } from '@a2a/fastify';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The demo app: the Poet agent as a Fastify plugin, next to an ordinary Fastify route, and the browser playground at
 * /playground (its own plugin registration: a handler with a base path); failures go to Fastify's log.
 */
export async function createDemoServer(
  options: DemoAgentOptions & { logger?: boolean } = {},
): Promise<{ app: FastifyInstance; handler: A2AHttpHandler }> {
  const app = Fastify({ logger: options.logger ?? false });
  const handler = createA2AHandler({ ...demoHandlerOptions(options), onError: (err) => app.log.error({ err }, 'a2a') });
  await app.register(a2aFastify, { handler });
  await app.register(a2aFastify, { handler: demoPlayground() });
  app.get('/health', async () => ({ ok: true }));
  return { app, handler };
}
