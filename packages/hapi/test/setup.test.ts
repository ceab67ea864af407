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

it('refuses a route prefix other than the basePath of the handler', async () => {
  const handler = createA2AHandler({ agentCard, executor: { execute: () => {} }, basePath: '/a2a' });
  const server = Hapi.server();
  await expect(
    server.register({ plugin: a2aHapi, options: { handler } }, { routes: { prefix: '/agents' } }),
  ).rejects.toThrow(/register the plugin without routes.prefix \('\/agents'\) or with the same prefix/);
});

it('registered under its basePath as the route prefix, still serves the card at the origin root', async () => {
  const handler = createA2AHandler({
    agentCard,
    executor: { execute: (ctx) => ctx.complete('ok') },
    basePath: '/a2a',
  });
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  await server.register({ plugin: a2aHapi, options: { handler } }, { routes: { prefix: '/a2a' } });
  server.route({ method: 'GET', path: '/.well-known/security.txt', handler: () => 'mine' });
  await server.start();
  try {
    const origin = server.info.uri;
    const card = await fetch(`${origin}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    expect((await card.json()).supportedInterfaces[0].url).toBe(`${origin}/a2a/`);
    expect((await fetch(`${origin}/.well-known/agent-card.json`, { method: 'HEAD' })).status).toBe(200);
    expect(await (await fetch(`${origin}/.well-known/security.txt`)).text()).toBe('mine');
    for (const url of [`${origin}/a2a`, `${origin}/a2a/`]) {
      const sent = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
        }),
      });
      expect((await sent.json()).result.task.status.state, url).toBe('TASK_STATE_COMPLETED');
    }
  } finally {
    await server.stop();
  }
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
