import type { Server } from 'node:http';
import { defineAdapterSuites, type HarnessStartOptions, listen, testCaller } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { a2aHono } from '../src/index.js';
import { withA2ARequestErrors } from '../src/node-server.js';

const harness = {
  name: 'Hono 4 (@hono/node-server)',
  // Core's body stream closes after its first chunk when the stream is over; @hono/node-server sends it with its length.
  streamsInOneWrite: true,
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
    // What serve() does (its own server builder), the listening left to the shared helper.
    const server = createAdaptorServer(withA2ARequestErrors({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }));
    const { url, close } = await listen(server as Server);
    return { baseUrl: url, close };
  },
};

defineAdapterSuites(harness);
