import { type Listening, listen } from '@a2a/adapter-testsuite';
import { type A2AHandlerOptions, createA2AHandler } from '@a2a/core';
import { ClientFactory } from '@a2a-js/sdk/client';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, describe, expect, it } from 'vitest';
import { a2aKoa } from '../src/index.js';

const options: A2AHandlerOptions = {
  agentCard: {
    name: 'Router agent',
    description: 'd',
    version: '1',
    skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
  },
  executor: { execute: (ctx) => ctx.complete(`done: ${ctx.message.parts[0]?.text}`) },
};

const servers: Listening[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** A Koa app whose A2A routes are on @koa/router, as the README shows. */
async function start(route: (router: Router) => void): Promise<string> {
  const app = new Koa();
  const router = new Router();
  route(router);
  app.use(router.routes());
  const server = await listen(app.callback());
  servers.push(server);
  return server.url;
}

const rpc = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
  });

describe('@koa/router mounts', () => {
  it('prefix-only: the README route answers at the prefix with and without its trailing slash', async () => {
    const a2a = createA2AHandler(options);
    const origin = await start((router) => router.all('/a2a{/*rest}', a2aKoa(a2a, { prefix: '/a2a' })));
    for (const url of [`${origin}/a2a`, `${origin}/a2a/`]) {
      const r = await rpc(url);
      expect(r.status, url).toBe(200);
      expect((await r.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
    expect((await fetch(`${origin}/a2a/.well-known/agent-card.json`)).status).toBe(200);
    expect((await fetch(`${origin}/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('with a basePath: the card at the origin root, and the official client finds it there', async () => {
    const a2a = createA2AHandler({ ...options, basePath: '/a2a' });
    const origin = await start((router) => router.all(['/a2a{/*rest}', '/.well-known/{*rest}'], a2aKoa(a2a)));
    const card = await (await fetch(`${origin}/.well-known/agent-card.json`)).json();
    expect(card.supportedInterfaces[0].url).toBe(`${origin}/a2a/`);
    expect((await rpc(`${origin}/a2a`)).status).toBe(200);
    expect((await fetch(`${origin}/.well-known/security.txt`)).status).toBe(404);
    const agent = await new ClientFactory().createFromUrl(origin);
    const task = (await agent.sendMessage({
      message: { messageId: crypto.randomUUID(), role: 1, parts: [{ content: { $case: 'text', value: 'sdk' } }] },
    } as unknown as Parameters<typeof agent.sendMessage>[0])) as { status?: { message?: { parts: unknown[] } } };
    expect(task.status?.message?.parts[0]).toMatchObject({ content: { $case: 'text', value: 'done: sdk' } });
  });
});
