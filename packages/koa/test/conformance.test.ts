import { defineAdapterSuites, type HarnessStartOptions, listen, testCaller } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa3 from 'koa';
import compress from 'koa-compress';
import Koa2 from 'koa2';
import { a2aKoa, type KoaContext, keepBodyError } from '../src/index.js';

type KoaClass = typeof Koa3;

function harness(name: string, Koa: KoaClass) {
  return {
    name,
    // A stream finished within the agent's burst is one body (`writeNodeResponseAfterBurst`).
    streamsInOneWrite: true,
    async start(a2a: A2AHttpHandler, o: HarnessStartOptions) {
      const app = new Koa({ proxy: o.trustProxy });
      if (o.compression) app.use(compress({ threshold: 0 }));
      // Keep the parser's errors, so A2A answers them (-32700, 413, 415) instead of Koa's plain text.
      if (o.bodyParser) app.use(bodyParser({ onError: keepBodyError }));
      const context = (ctx: KoaContext) => testCaller(ctx.req.headers['x-test-user']);
      if (o.mountPath) {
        // Under @koa/router: a prefix route with the same prefix told to the middleware.
        const router = new Router();
        router.all(`${o.mountPath}{/*rest}`, a2aKoa(a2a, { context, prefix: o.mountPath }));
        app.use(router.routes());
      } else app.use(a2aKoa(a2a, { context }));
      app.use(async (ctx, next) => {
        if (ctx.path === `${o.mountPath}/host-route`) ctx.body = 'host';
        else await next();
      });
      const { url, close } = await listen(app.callback());
      return { baseUrl: url, close };
    },
  };
}

for (const h of [harness('Koa 3', Koa3), harness('Koa 2', Koa2 as unknown as KoaClass)]) {
  defineAdapterSuites(h);
}
