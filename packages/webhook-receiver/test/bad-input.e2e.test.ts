import { listen, RawConnection } from '@a2a/adapter-testsuite';
import type { MountableHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { a2aExpress } from '@a2a/express';
import { a2aHapi } from '@a2a/hapi';
import { a2aKoa, keepBodyError } from '@a2a/koa';
import Hapi from '@hapi/hapi';
import { bodyParser } from '@koa/bodyparser';
import express from 'express';
import Koa from 'koa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookReceiver } from '../src/index.js';

/** The receiver mounted at /hooks through every mount users have, including behind the frameworks' body parsers. */
const mounts: Record<string, (hooks: MountableHandler) => Promise<{ url: string; close: () => Promise<void> }>> = {
  'createNodeHandler (node:http)': async (hooks) => {
    const listener = createNodeHandler(hooks);
    return listen((req, res) => void listener(req, res));
  },
  'Express, no body parser': async (hooks) => {
    const app = express();
    app.use('/hooks', a2aExpress(hooks));
    return listen(app);
  },
  'Express after express.json()': async (hooks) => {
    const app = express();
    app.use(express.json({ verify: (req, _res, buf) => void Object.assign(req, { rawBody: buf }) }));
    app.use('/hooks', a2aExpress(hooks));
    return listen(app);
  },
  'Koa without a body parser': async (hooks) => {
    const app = new Koa();
    app.use(a2aKoa(hooks, { prefix: '/hooks' }));
    return listen(app.callback());
  },
  'Koa after @koa/bodyparser': async (hooks) => {
    const app = new Koa();
    app.use(bodyParser({ onError: keepBodyError }));
    app.use(a2aKoa(hooks, { prefix: '/hooks' }));
    return listen(app.callback());
  },
  'Hapi plugin': async (hooks) => {
    const server = Hapi.server({ host: '127.0.0.1', port: 0 });
    await server.register({ plugin: a2aHapi, options: { handler: hooks } }, { routes: { prefix: '/hooks' } });
    await server.start();
    return listen(server.listener, { stop: () => server.stop({ timeout: 100 }) });
  },
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// Something thrown outside a request (a stream event listener) would end a real process.
const uncaught: unknown[] = [];
const record = (error: unknown) => void uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', record);
});
afterEach(() => void process.off('uncaughtException', record));

describe.each(Object.entries(mounts))('webhook receiver through %s: bad input', (_name, mount) => {
  it('answers an over-limit chunked body 413 and keeps serving on the same keep-alive connection', async () => {
    const receiver = createWebhookReceiver({ token: 'secret-token', maxBodyBytes: 64 * 1024 });
    const rx = await mount(receiver.handler);
    cleanups.push(rx.close);
    const { hostname, port } = new URL(rx.url);
    const c = await RawConnection.open(hostname, Number(port));
    cleanups.push(() => c.close());
    const post = (body: string, chunkSize?: number) =>
      c.send(
        {
          method: 'POST',
          path: '/hooks/a2a',
          headers: [['content-type', 'application/json']],
          body,
          ...(chunkSize !== undefined && { chunkSize }),
        },
        15_000,
      );
    const big = `{"statusUpdate":{"taskId":"${'x'.repeat(2 * 1024 * 1024)}"}}`;
    for (const chunkSize of [64 * 1024, undefined]) {
      expect((await post(big, chunkSize)).status).toBe(413);
      // The same socket still serves: an unauthenticated notification is answered 401.
      const small = await post(
        '{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}',
      );
      expect(small.status).toBe(401);
    }
    const trace = await c.send({ method: 'TRACE', path: '/hooks/a2a', headers: [] }, 15_000);
    expect(trace.status).toBe(405);
    expect(trace.body).not.toMatch(/\bat [\w.<>]+ \(|node:internal/);
    expect(uncaught).toEqual([]);
  });
});
