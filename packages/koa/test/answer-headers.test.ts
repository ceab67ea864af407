import { type Listening, listen } from '@a2a/adapter-testsuite';
import type { MountableHandler } from '@a2a/core';
import Koa from 'koa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { a2aKoa } from '../src/index.js';

// The adapter writes a handler's header record onto Node's response itself (not through Koa's `ctx.set`): several
// Set-Cookie values stay apart, and middleware before it still reads and changes the answer's headers after next().
let server: Listening;
let base = '';
beforeAll(async () => {
  const handler: MountableHandler = {
    handle: async () =>
      new Response('hi', {
        status: 201,
        headers: [
          ['content-type', 'text/plain'],
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
          ['x-answer', 'one'],
        ],
      }),
  };
  const app = new Koa();
  app.use(async (ctx, next) => {
    await next();
    ctx.set('x-seen', String(ctx.response.get('x-answer')));
  });
  app.use(a2aKoa(handler));
  server = await listen(app.callback());
  base = server.url;
});
afterAll(() => server.close());

it('sends every header of the answer, Set-Cookie values apart, where earlier middleware can read them', async () => {
  const r = await fetch(`${base}/anything`);
  expect(r.status).toBe(201);
  expect(await r.text()).toBe('hi');
  expect(r.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  expect(r.headers.get('x-answer')).toBe('one');
  expect(r.headers.get('x-seen')).toBe('one');
  expect(r.headers.get('content-type')).toBe('text/plain');
});
