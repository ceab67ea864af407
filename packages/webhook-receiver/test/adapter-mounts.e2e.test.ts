import type { Server } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { generatePushSigningKey, type MountableHandler, PushSigner } from '@a2a/core';
import { createNodePushSender } from '@a2a/core/node';
import { a2aExpress } from '@a2a/express';
import { a2aFastify } from '@a2a/fastify';
import { a2aHapi } from '@a2a/hapi';
import { a2aHono } from '@a2a/hono';
import { a2aKoa } from '@a2a/koa';
import Hapi from '@hapi/hapi';
import { createAdaptorServer } from '@hono/node-server';
import { bodyParser } from '@koa/bodyparser';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyNotification, WebhookReceiver } from '../src/index.js';
import { AGENT_ISSUER, chunkedExecutor, startAgent, trustingReceiver, until } from './servers.js';

/** Each framework mounts `receiver.handler` at /hooks with the same adapter users mount their agent with. */
const mounts: Record<string, (hooks: MountableHandler) => Promise<{ url: string; close: () => Promise<void> }>> = {
  'Express, no body parser': async (hooks) => {
    const app = express();
    app.use('/hooks', a2aExpress(hooks));
    return listen(app);
  },
  'Express after express.json() keeping the raw bytes': async (hooks) => {
    const app = express();
    app.use(
      express.json({
        type: ['application/json', 'application/a2a+json'],
        verify: (req, _res, buf) => void Object.assign(req, { rawBody: buf }),
      }),
    );
    app.use('/hooks', a2aExpress(hooks));
    return listen(app);
  },
  'Koa with @koa/bodyparser (rawBody)': async (hooks) => {
    const app = new Koa();
    app.use(bodyParser({ extendTypes: { json: ['application/a2a+json'] } }));
    app.use(a2aKoa(hooks, { prefix: '/hooks' }));
    return listen(app.callback());
  },
  'Hapi plugin under a route prefix': async (hooks) => {
    const server = Hapi.server({ host: '127.0.0.1', port: 0 });
    await server.register({ plugin: a2aHapi, options: { handler: hooks } }, { routes: { prefix: '/hooks' } });
    await server.start();
    return listen(server.listener, { stop: () => server.stop({ timeout: 100 }) });
  },
  'Fastify plugin under a prefix': async (hooks) => {
    const app = Fastify();
    await app.register(a2aFastify, { handler: hooks, prefix: '/hooks' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return listen(app.server, { stop: () => app.close() });
  },
  'Hono sub-app on @hono/node-server': async (hooks) => {
    const app = new Hono();
    app.route('/hooks', a2aHono(hooks));
    return listen(createAdaptorServer({ fetch: app.fetch }) as Server);
  },
};

const notYet = async () => new Response('not ready', { status: 503 });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.each(Object.entries(mounts))('webhook receiver mounted through %s', (_name, mount) => {
  it('verifies token and JWT on the raw bytes, dispatches every event in order, refuses forgeries', async () => {
    const key = await generatePushSigningKey('k1');
    const sender = createNodePushSender({
      retry: { baseDelayMs: 10, maxDelayMs: 40, maxAttempts: 50 },
      timeoutMs: 1000,
      ssrf: { allow: ['127.0.0.1'] },
      signer: new PushSigner({ issuer: AGENT_ISSUER, keys: [key] }),
    });
    cleanups.push(() => sender.close());
    const agent = await startAgent(sender, chunkedExecutor(3));
    cleanups.push(agent.close);

    // The JWT audience is the webhook URL, known once the receiver's server listens.
    let receiver: WebhookReceiver | undefined;
    const rx = await mount({ handle: (request, options) => receiver?.handler.handle(request, options) ?? notYet() });
    cleanups.push(rx.close);
    const webhook = `${rx.url}/hooks/a2a`;
    receiver = trustingReceiver(agent.url, webhook);
    const got: AnyNotification[] = [];
    receiver.on('*', (n) => void got.push(n));

    const taskId = await agent.startTask(webhook);
    await until(
      () => got.some((n) => n.kind === 'statusUpdate' && n.payload.status.state === 'TASK_STATE_COMPLETED'),
      5000,
      'completion',
    );
    expect(got.every((n) => n.taskId === taskId && n.verifiedBy?.includes('jwt'))).toBe(true);
    expect(got.map((n) => (n.kind === 'statusUpdate' ? n.payload.status.state : n.kind))).toEqual([
      'TASK_STATE_WORKING',
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'TASK_STATE_COMPLETED',
    ]);

    const forged = await fetch(webhook, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json', 'x-a2a-notification-token': 'guess' },
      body: JSON.stringify({ statusUpdate: { taskId, contextId: 'c', status: { state: 'TASK_STATE_FAILED' } } }),
    });
    expect(forged.status).toBe(401);
    const wrongType = await fetch(webhook, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(wrongType.status).toBe(415);
    expect(got).toHaveLength(5);
  });
});
