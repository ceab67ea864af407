import { createA2AHandler } from '@a2a/core';
import Hapi from '@hapi/hapi';
import { expect, it } from 'vitest';
import { a2aHapi } from '../src/index.js';

const agentCard = {
  name: 'A',
  description: 'd',
  version: '1',
  skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
};

it('refuses a registration without a handler, saying what to pass', async () => {
  const server = Hapi.server();
  await expect(server.register({ plugin: a2aHapi, options: {} as never })).rejects.toThrow(
    /a2aHapi: the plugin option `handler` needs the handler that createA2AHandler/,
  );
});

it('refuses a route prefix for a handler whose basePath places its routes', async () => {
  const handler = createA2AHandler({ agentCard, executor: { execute: () => {} }, basePath: '/a2a' });
  const server = Hapi.server();
  await expect(
    server.register({ plugin: a2aHapi, options: { handler } }, { routes: { prefix: '/a2a' } }),
  ).rejects.toThrow(/register the plugin without routes.prefix/);
});

it("with a basePath, registers only the handler's paths: the app keeps its own catch-all", async () => {
  const handler = createA2AHandler({ agentCard, executor: { execute: () => {} }, basePath: '/a2a' });
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  server.route({ method: '*', path: '/{any*}', handler: () => 'app' });
  await server.register({ plugin: a2aHapi, options: { handler } });
  await server.start();
  try {
    expect(await (await fetch(`${server.info.uri}/somewhere`)).text()).toBe('app');
    expect((await fetch(`${server.info.uri}/.well-known/agent-card.json`)).status).toBe(200);
  } finally {
    await server.stop();
  }
});
