import { Writable } from 'node:stream';
import { eventually } from '@a2a/adapter-testsuite';
import { type A2AHandlerOptions, createA2AHandler } from '@a2a/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aFastify, a2aFrameworkErrors } from '../src/index.js';

const agent: A2AHandlerOptions = {
  agentCard: {
    name: 'Fastify agent',
    description: 'd',
    version: '1',
    skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
  },
  executor: {
    execute(ctx) {
      if (ctx.message.parts[0]?.text === 'fail') throw new Error('the agent broke');
      return ctx.complete(`done: ${ctx.message.parts[0]?.text}`);
    },
  },
};

declare module 'fastify' {
  interface FastifyRequest {
    /** What an auth plugin (@fastify/jwt's `request.jwtVerify()`) leaves. */
    user?: { sub: string; scope: string[] } | undefined;
  }
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function listen(app: FastifyInstance): Promise<string> {
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

const rpc = (url: string, method: string, params: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
const message = (text: string) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] });

describe('setup', () => {
  it('refuses a registration without a handler, saying what to pass', async () => {
    const app = Fastify();
    await expect(app.register(a2aFastify, {}).ready()).rejects.toThrow(
      /a2aFastify: the plugin option `handler` needs the handler that createA2AHandler/,
    );
  });

  it('refuses a prefix for a handler whose basePath places its routes', async () => {
    const app = Fastify();
    const handler = createA2AHandler({ ...agent, basePath: '/a2a' });
    await expect(app.register(a2aFastify, { handler, prefix: '/agents' }).ready()).rejects.toThrow(
      /basePath '\/a2a'.*without a prefix \('\/agents'\)/,
    );
  });
});

describe('in a Fastify app', () => {
  it('maps request.user from an auth hook to the A2A caller: tasks are scoped to it', async () => {
    const app = Fastify();
    app.decorateRequest('user', undefined);
    app.addHook('onRequest', async (request) => {
      const token = request.headers.authorization?.replace(/^Bearer /, '');
      if (token) request.user = { sub: token, scope: ['agent:use'] };
    });
    const handler = createA2AHandler(agent);
    await app.register(a2aFastify, {
      handler,
      prefix: '/a2a',
      context: (request) => (request.user ? { user: { id: request.user.sub, scopes: request.user.scope } } : undefined),
    });
    const base = await listen(app);
    const sent = await (
      await rpc(`${base}/a2a`, 'SendMessage', { message: message('hi') }, { authorization: 'Bearer alice' })
    ).json();
    const id = sent.result.task.id;
    const own = await (await rpc(`${base}/a2a`, 'GetTask', { id }, { authorization: 'Bearer alice' })).json();
    expect(own.result.id).toBe(id);
    const other = await (await rpc(`${base}/a2a`, 'GetTask', { id }, { authorization: 'Bearer bob' })).json();
    expect(other.error.code).toBe(-32001);
  });

  it("hands errors core cannot answer to the app's error handler", async () => {
    const app = Fastify();
    app.setErrorHandler(async (error, _request, reply) => reply.code(503).send({ app: (error as Error).message }));
    await app.register(a2aFastify, {
      handler: createA2AHandler(agent),
      context: () => {
        throw new Error('session store down');
      },
    });
    const base = await listen(app);
    const r = await rpc(`${base}/`, 'SendMessage', { message: message('hi') });
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ app: 'session store down' });
  });

  it("with `agent`: logs the agent's failures through Fastify's logger", async () => {
    const lines: { msg?: string; err?: { message: string } }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'error', stream } });
    await app.register(a2aFastify, { agent });
    const base = await listen(app);
    const r = await (await rpc(`${base}/`, 'SendMessage', { message: message('fail') })).json();
    expect(r.result.task.status.state).toBe('TASK_STATE_FAILED');
    expect(lines.some((l) => l.msg === 'a2a' && l.err?.message === 'the agent broke')).toBe(true);
  });

  it("keeps the app's own JSON parser and 404 for its other routes", async () => {
    const app = Fastify();
    app.post('/orders', async (request) => ({ got: request.body }));
    await app.register(a2aFastify, { handler: createA2AHandler(agent), prefix: '/a2a' });
    const base = await listen(app);
    const order = await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'tea' }),
    });
    expect(await order.json()).toEqual({ got: { item: 'tea' } });
    const missing = await fetch(`${base}/a2a/no/such/route`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toMatch(/Route GET:\/a2a\/no\/such\/route not found/);
  });

  it("runs the app's hooks and decorators on its answers: an async onSend that rewrites the body, onResponse", async () => {
    // The route resolves to nothing once the reply is sent, and to the reply while a hook still holds it: an async
    // onSend hook must get to finish its answer (Fastify sends an empty body for a route that resolved to nothing).
    const app = Fastify();
    const seen: string[] = [];
    app.decorateReply('stamp', 'from-decorator');
    app.addHook('onRequest', async (request) => {
      request.headers['x-seen'] = 'onRequest';
    });
    // Like a signing or compressing hook: a body takes it a while, nothing to sign passes at once.
    app.addHook('onSend', async (_request, reply, payload) => {
      if (typeof payload !== 'string') return payload;
      await new Promise((resolve) => setTimeout(resolve, 5));
      reply.header('x-stamp', (reply as unknown as { stamp: string }).stamp);
      return payload.replace('"jsonrpc":"2.0"', '"jsonrpc":"2.0","hooked":true');
    });
    app.addHook('onResponse', async (request, reply) => {
      seen.push(`${request.headers['x-seen']} ${reply.statusCode}`);
    });
    await app.register(a2aFastify, { handler: createA2AHandler(agent), prefix: '/a2a' });
    const base = await listen(app);
    const sent = await rpc(`${base}/a2a`, 'SendMessage', { message: message('hi') });
    expect(sent.headers.get('x-stamp')).toBe('from-decorator');
    const body = await sent.json();
    expect(body.hooked).toBe(true);
    expect(JSON.stringify(body.result)).toContain('done: hi');
    const card = await fetch(`${base}/a2a/.well-known/agent-card.json`);
    expect(card.headers.get('x-stamp')).toBe('from-decorator');
    expect((await card.json()).name).toBe('Fastify agent');
    const missing = await fetch(`${base}/a2a/no/such/route`);
    expect(missing.status).toBe(404);
    // onResponse runs once the answer is out: waited for, bounded, never a fixed sleep.
    await eventually(() => seen.length === 3, 5000);
    expect(seen).toEqual(['onRequest 200', 'onRequest 200', 'onRequest 404']);
  });

  it("a2aFrameworkErrors: an undecodable path answers the A2A 400 under the mount, Fastify's own elsewhere", async () => {
    const app = Fastify({ frameworkErrors: a2aFrameworkErrors });
    app.get('/files/*', async () => 'file');
    await app.register(a2aFastify, { handler: createA2AHandler(agent), prefix: '/a2a' });
    const base = await listen(app);
    const ours = await fetch(`${base}/a2a/tasks/%zz`, { headers: { 'a2a-version': '1.0' } });
    expect(ours.status).toBe(400);
    expect((await ours.json()).error.status).toBe('INVALID_ARGUMENT');
    const theirs = await fetch(`${base}/files/%zz`);
    expect(theirs.status).toBe(400);
    expect((await theirs.json()).code).toBe('FST_ERR_BAD_URL');
  });
});
