import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineAdapterSuites, type HarnessStartOptions, testCaller } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { a2aHono } from '../src/index.js';
import { withA2ARequestErrors } from '../src/node-server.js';

const harness = {
  name: 'Hono 4 (@hono/node-server)',
  async start(a2a: A2AHttpHandler, o: HarnessStartOptions) {
    const app = new Hono();
    if (o.compression) app.use(compress());
    // A body reader in front of every route (as for webhook signatures): the stream is consumed, Hono keeps the text.
    if (o.bodyParser) {
      app.use(async (c, next) => {
        if (['POST', 'PUT', 'PATCH'].includes(c.req.method)) await c.req.text();
        await next();
      });
    }
    app.route(
      o.mountPath || '/',
      a2aHono(a2a, { context: (c) => testCaller(c.req.header('x-test-user')), trustProxy: o.trustProxy }),
    );
    app.get(`${o.mountPath}/host-route`, (c) => c.text('host'));
    const server = await new Promise<Server>((resolve) => {
      const s = serve(withA2ARequestErrors({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }), () =>
        resolve(s as Server),
      );
    });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
};

defineAdapterSuites(harness);
