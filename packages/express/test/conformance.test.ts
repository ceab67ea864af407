import { defineAdapterSuites, type HarnessStartOptions, listen, testCaller } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import compression from 'compression';
import express5 from 'express';
import express4 from 'express4';
import { a2aExpress } from '../src/index.js';

type ExpressFactory = typeof express5;

function harness(name: string, express: ExpressFactory) {
  return {
    name,
    // A stream finished within the agent's burst is one body (`writeNodeResponseAfterBurst`).
    streamsInOneWrite: true,
    async start(a2a: A2AHttpHandler, o: HarnessStartOptions) {
      const app = express();
      app.set('trust proxy', o.trustProxy);
      if (o.compression) app.use(compression());
      if (o.bodyParser) app.use(express.json());
      const mw = a2aExpress(a2a, {
        context: (req) => testCaller(req.get('x-test-user')),
      });
      if (o.mountPath) app.use(o.mountPath, ...mw);
      else app.use(...mw);
      app.get(`${o.mountPath}/host-route`, (_req, res) => void res.type('text').send('host'));
      const { url, close } = await listen(app);
      return { baseUrl: url, close };
    },
  };
}

for (const h of [harness('Express 5', express5), harness('Express 4', express4)]) {
  defineAdapterSuites(h);
}
