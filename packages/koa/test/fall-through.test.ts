import { type Listening, listen } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { a2aKoa } from '../src/index.js';

// Without a prefix the middleware sees every request: the ones it does not own must reach next() with their body.
let server: Listening;
let base = '';
beforeAll(async () => {
  const a2a = createA2AHandler({
    agentCard: {
      name: 'A',
      description: 'd',
      version: '1',
      skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
    },
    executor: { execute: (ctx) => ctx.complete('ok') },
  });
  const app = new Koa();
  app.use(a2aKoa(a2a));
  app.use(bodyParser());
  app.use((ctx) => {
    if (ctx.path === '/orders') ctx.body = { got: ctx.request.body };
  });
  server = await listen(app.callback());
  base = server.url;
});
afterAll(() => server.close());

it('passes a POST it does not own to the next middleware with its body unread', async () => {
  const r = await fetch(`${base}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ item: 'tea' }),
  });
  expect(await r.json()).toEqual({ got: { item: 'tea' } });
});
