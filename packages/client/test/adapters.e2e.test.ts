import { listen } from '@a2a/adapter-testsuite';
import { isA2AError } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import { a2aHapi } from '@a2a/hapi';
import { a2aKoa } from '@a2a/koa';
import Hapi from '@hapi/hapi';
import { bodyParser } from '@koa/bodyparser';
import express from 'express';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ProtocolBinding } from '../src/index.js';
import { type Agent, bearerCaller, type Mount, startAgent, stateOf, userMessage } from './agent.js';
import { cuttingFetch } from './cutting-fetch.js';

/** Each framework with its usual body parser in front; `path` is where the client is pointed. */
const mounts: Record<string, { mount: Mount; basePath?: string; path: string }> = {
  'Express 5 after express.json(), basePath /a2a (card at the origin)': {
    basePath: '/a2a',
    path: '',
    mount: async (a2a, record) => {
      const app = express();
      app.use((req, res, next) => {
        record(req, res);
        next();
      });
      app.use(express.json({ type: ['application/json', 'application/a2a+json'] }));
      app.use(a2aExpress(a2a, { context: (req) => bearerCaller(req.get('authorization')) }));
      return listen(app);
    },
  },
  'Koa 3 with @koa/bodyparser under the prefix /agent (card under it)': {
    path: '/agent',
    mount: async (a2a, record) => {
      const app = new Koa();
      app.use(async (ctx, next) => {
        record(ctx.req, ctx.res);
        await next();
      });
      app.use(bodyParser({ extendTypes: { json: ['application/a2a+json'] } }));
      app.use(a2aKoa(a2a, { prefix: '/agent', context: (ctx) => bearerCaller(ctx.get('authorization')) }));
      return listen(app.callback());
    },
  },
  'Hapi 21 plugin, basePath /a2a (card at the origin)': {
    basePath: '/a2a',
    path: '',
    mount: async (handler, record) => {
      const server = Hapi.server({ host: '127.0.0.1', port: 0 });
      server.ext('onRequest', (request, h) => {
        record(request.raw.req, request.raw.res);
        return h.continue;
      });
      await server.register({
        plugin: a2aHapi,
        options: { handler, context: (request) => bearerCaller(request.headers.authorization as string | undefined) },
      });
      await server.start();
      return listen(server.listener, { stop: () => server.stop({ timeout: 100 }) });
    },
  },
};

let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

describe.each(Object.entries(mounts))('the client against our server on %s', (_name, { mount, basePath, path }) => {
  describe.each<ProtocolBinding>(['JSONRPC', 'HTTP+JSON'])('over %s', (binding) => {
    const connect = async (options: Parameters<typeof A2AClient.connect>[1] = {}) => {
      agent = await startAgent(basePath ? { basePath } : {}, mount);
      return A2AClient.connect(`${agent.url}${path}`, { bindings: [binding], reconnect: { delayMs: 10 }, ...options });
    };

    it('sends, reads, lists and refuses with typed errors', async () => {
      const client = await connect({ headers: { authorization: 'Bearer dana' } });
      expect(client.interface.url).toContain(basePath ?? path);
      const sent = await client.sendMessage({ message: userMessage('chunks:2') });
      if (!('task' in sent)) throw new Error('expected a task');
      expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await client.getTask({ id: sent.task.id })).artifacts).toHaveLength(1);
      expect((await client.listTasks({})).tasks.map((t) => t.id)).toEqual([sent.task.id]);
      const missing = await client.getTask({ id: 'nope' }).catch((e: unknown) => e);
      expect(isA2AError(missing) && missing.type).toBe('TaskNotFound');
    });

    it('streams through a dropped connection without gaps or duplicates', async () => {
      const client = await connect({ fetch: cuttingFetch(2) });
      const stream = client.sendStreamingMessage({ message: userMessage('gate:a;then:b') });
      const seen: string[] = [];
      for await (const event of stream) {
        seen.push(stateOf(event));
        if (seen.length === 2) agent?.gates.get('a').resolve();
        if (seen.length === 4) agent?.gates.get('b').resolve();
      }
      expect(seen).toEqual([
        'task TASK_STATE_SUBMITTED',
        'status TASK_STATE_WORKING',
        'artifact chunk 0',
        'artifact chunk 1',
        'status TASK_STATE_COMPLETED',
      ]);
      expect(stream.reconnects).toBe(1);
    });

    it('cancels a running task it is subscribed to; an aborted stream frees its connection', async () => {
      const client = await connect();
      const sent = await client.sendMessage({
        message: userMessage('gate:never'),
        configuration: { returnImmediately: true },
      });
      if (!('task' in sent)) throw new Error('expected a task');
      const controller = new AbortController();
      const seen: string[] = [];
      const watching = (async () => {
        for await (const event of client.subscribeToTask({ id: sent.task.id }, { signal: controller.signal })) {
          seen.push(stateOf(event));
        }
      })();
      await expect.poll(() => seen.length).toBe(1);
      controller.abort();
      await expect(watching).rejects.toMatchObject({ name: 'AbortError' });
      await expect.poll(() => agent?.streamClosed()).toBe(true); // the task still runs: the client hung up
      const canceled = await client.cancelTask({ id: sent.task.id });
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    });
  });
});
