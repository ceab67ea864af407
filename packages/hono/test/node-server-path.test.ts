// On @hono/node-server, @a2a/hono reads an untouched request through core's Node bridge (no Web body stream, no
// second Request) and hands node-server plain responses it writes in one call. What the Web path did must still
// hold: the app's other routes get their body, middleware sees and changes the answer, a body read first still works.
import type { Server } from 'node:http';
import { client, createFixture, type Listening, listen, read, sse, userMessage } from '@a2a/adapter-testsuite';
import type { MountableHandler } from '@a2a/core';
import { isPrepared } from '@a2a/core/adapter';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { a2aHono, a2aMiddleware } from '../src/index.js';

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The fixture's handler, recording whether each request it got came through the Node bridge. */
function watched() {
  const { a2a } = createFixture(undefined, { basePath: '/a2a' });
  const bridged: boolean[] = [];
  const handler: MountableHandler = {
    handle: (request, options) => {
      bridged.push(isPrepared(request));
      return a2a.handle(request, options);
    },
  };
  return { handler, bridged };
}

async function start(app: Hono): Promise<string> {
  // What serve() does (its own server builder), the listening left to the shared helper.
  server = await listen(createAdaptorServer({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server);
  return server.url;
}

describe('@a2a/hono on @hono/node-server', () => {
  it('reads an untouched request through the Node bridge, and middleware still sees and changes the answer', async () => {
    const { handler, bridged } = watched();
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      c.res.headers.set('x-after', c.res.headers.get('content-type') ?? 'none');
    });
    app.use(a2aMiddleware(handler));
    const origin = await start(app);
    const a2a = client(`${origin}/a2a`);

    const sent = await a2a.rpc('SendMessage', { message: userMessage('hello') }, { 'a2a-version': '1.0' });
    expect(sent.status).toBe(200);
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(sent.headers.get('x-after')).toBe('application/json');

    const card = await read(await fetch(`${origin}/.well-known/agent-card.json`));
    expect(card.body.name).toBeTruthy();
    expect(card.headers.get('etag')).toBeTruthy();
    expect(card.headers.get('x-after')).toBe('application/json');

    const streamed = await a2a.rpcFetch(
      'SendStreamingMessage',
      { message: userMessage('stream me') },
      { 'a2a-version': '1.0', accept: 'text/event-stream' },
    );
    expect(streamed.headers.get('x-after')).toMatch(/^text\/event-stream/);
    const events = await sse(streamed).rest();
    expect(JSON.parse(events.at(-1)?.data ?? '{}').result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');

    expect(bridged).toEqual([true, true, true]);
  });

  it("leaves the body of a request it does not own to the app's next route", async () => {
    const { handler, bridged } = watched();
    const app = new Hono();
    app.use(a2aMiddleware(handler));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    const origin = await start(app);

    const answer = await fetch(`${origin}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kept: 'yes', size: 'x'.repeat(100_000) }),
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).kept).toBe('yes');
    expect(bridged).toEqual([true]);
  });

  it('takes the Web path for a body a middleware read first, and answers from it', async () => {
    const { handler, bridged } = watched();
    const app = new Hono();
    app.use(async (c, next) => {
      if (c.req.method === 'POST') await c.req.text();
      await next();
    });
    app.use(a2aMiddleware(handler));
    const origin = await start(app);

    const sent = await client(`${origin}/a2a`).rpc(
      'SendMessage',
      { message: userMessage('read first') },
      { 'a2a-version': '1.0' },
    );
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(bridged).toEqual([false]);
  });
});

describe('@a2a/hono setup mistakes', () => {
  it('refuses a handler with a basePath mounted under a prefix, naming the fix', async () => {
    const { a2a } = createFixture(undefined, { basePath: '/a2a' });
    const app = new Hono();
    app.route('/api', a2aHono(a2a));
    app.onError((error, c) => c.text(error.message, 500));
    const origin = await start(app);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const path of ['/api/a2a/message:send', '/api/message:send']) {
        const answer = await fetch(`${origin}${path}`, { method: 'POST' });
        expect(answer.status).toBe(500);
        expect(await answer.text()).toMatch(/a2aHono: the handler has basePath '\/a2a'.*not under '\/api'/);
      }
      // Logged too, once: the origin's card 404s without reaching the middleware, and onError may hide the message.
      expect(logged.mock.calls).toEqual([[expect.stringMatching(/a2aHono: the handler has basePath '\/a2a'/)]]);
    } finally {
      logged.mockRestore();
    }
  });

  it('refuses a missing handler at setup', () => {
    expect(() => a2aHono(undefined as never)).toThrow(/a2aHono needs the handler/);
    expect(() => a2aMiddleware(undefined as never)).toThrow(/a2aMiddleware needs the handler/);
  });
});
