import { Readable } from 'node:stream';
import { defineAdapterSuites, type HarnessStartOptions, listen, testCaller } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import compress from '@fastify/compress';
import Fastify from 'fastify';
import { a2aFastify, a2aFrameworkErrors } from '../src/index.js';

const harness = {
  name: 'Fastify 5',
  // A stream finished within the agent's burst is one body (`writeNodeResponseAfterBurst`).
  streamsInOneWrite: true,
  async start(a2a: A2AHttpHandler, o: HarnessStartOptions) {
    const app = Fastify({ trustProxy: o.trustProxy, frameworkErrors: a2aFrameworkErrors });
    if (o.compression) await app.register(compress, { threshold: 0 });
    // A body reader in front of every route (as for webhook signatures): it consumes the stream in preParsing, keeps
    // the bytes in `request.rawBody` and hands the parsers a copy.
    if (o.bodyParser) {
      app.addHook('preParsing', async (request, _reply, payload) => {
        const chunks: Buffer[] = [];
        for await (const chunk of payload) chunks.push(chunk as Buffer);
        const raw = Buffer.concat(chunks);
        (request as { rawBody?: Buffer }).rawBody = raw;
        return Readable.from([raw]);
      });
    }
    await app.register(a2aFastify, {
      handler: a2a,
      prefix: o.mountPath,
      context: (request) => testCaller(request.headers['x-test-user']),
    });
    app.get(`${o.mountPath}/host-route`, async (_request, reply) => reply.type('text/plain').send('host'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { url, close } = await listen(app.server, { stop: () => app.close() });
    return { baseUrl: url, close };
  },
};

defineAdapterSuites(harness);
