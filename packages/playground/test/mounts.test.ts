// The playground mounted beside an agent on every framework, as its README says: the page, its assets and its card
// API answer under /playground, and the agent's own routes still answer (the two handlers do not shadow each other).
import 'reflect-metadata';
import type { Server } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import { a2aFastify } from '@a2a/fastify';
import { a2aHapi } from '@a2a/hapi';
import { a2aHono } from '@a2a/hono';
import { withA2ARequestErrors } from '@a2a/hono/node-server';
import { a2aKoa } from '@a2a/koa';
import { A2AModule } from '@a2a/nestjs';
import Hapi from '@hapi/hapi';
import { createAdaptorServer } from '@hono/node-server';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlayground } from '../src/index.js';
import { buildUi } from './build-ui.js';

const agentCard = {
  name: 'Mounted agent',
  description: 'Answers beside the playground',
  version: '1.0.0',
  skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
};
const agent = () =>
  createA2AHandler({ agentCard, executor: { execute: (ctx) => ctx.complete('ok') }, basePath: '/a2a' });

/** Each framework with the playground and an agent mounted the README's way; resolves to its origin and a closer. */
const MOUNTS: Record<string, () => Promise<{ url: string; close(): Promise<void> }>> = {
  express: async () => {
    const app = express();
    app.use(a2aExpress(createPlayground()));
    app.use(express.json());
    app.use(a2aExpress(agent()));
    return listen(app);
  },
  koa: async () => {
    const app = new Koa();
    app.use(a2aKoa(createPlayground()));
    app.use(a2aKoa(agent()));
    return listen(app.callback());
  },
  hapi: async () => {
    const server = Hapi.server({ port: 0, host: '127.0.0.1' });
    await server.register({ plugin: a2aHapi, options: { handler: createPlayground() } });
    await server.register({ plugin: a2aHapi, options: { handler: agent() } });
    await server.start();
    return { url: server.info.uri, close: () => server.stop() };
  },
  fastify: async () => {
    const app = Fastify();
    await app.register(a2aFastify, { handler: createPlayground() });
    await app.register(a2aFastify, { handler: agent() });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url, close: () => app.close() };
  },
  hono: async () => {
    const app = new Hono();
    app.route('/', a2aHono(createPlayground()));
    app.route('/', a2aHono(agent()));
    return listen(createAdaptorServer(withA2ARequestErrors({ fetch: app.fetch })) as Server);
  },
  nestjs: async () => {
    class AppModule {}
    Module({ imports: [A2AModule.forRoot({ handler: createPlayground() }), A2AModule.forRoot({ handler: agent() })] })(
      AppModule,
    );
    // rawBody: Nest's Express platform parses JSON bodies first; the playground's proxy forwards the bytes as sent.
    const app = await NestFactory.create(AppModule, { logger: false, rawBody: true });
    await app.listen(0, '127.0.0.1');
    return { url: await app.getUrl(), close: () => app.close() };
  },
};

beforeAll(() => buildUi());

describe.each(Object.keys(MOUNTS))('the playground beside an agent on %s', (name) => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await (MOUNTS[name] as () => Promise<typeof server>)();
    server.url = server.url.replace('[::1]', '127.0.0.1').replace(/\/$/, '');
  });
  afterAll(() => server?.close());

  it('serves the page, its script and its card API, and the agent its card and JSON-RPC', async () => {
    const page = await fetch(`${server.url}/playground`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/playground/app.js">');
    expect((await fetch(`${server.url}/playground/app.js`)).status).toBe(200);
    // The page's own-origin card check (the card it fetched itself, checked by the server).
    const card = await (await fetch(`${server.url}/.well-known/agent-card.json`)).json();
    expect(card.name).toBe('Mounted agent');
    const checked = await fetch(`${server.url}/playground/api/card`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-playground-api': '1' },
      body: JSON.stringify({ url: `${server.url}/.well-known/agent-card.json`, card }),
    });
    expect(checked.status).toBe(200);
    expect((await checked.json()).card.name).toBe('Mounted agent');
    const sent = await fetch(`${server.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      }),
    });
    expect((await sent.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
