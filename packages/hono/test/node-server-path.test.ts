// On @hono/node-server, @a2a/hono reads an untouched request through core's Node bridge (no Web body stream, no
// second Request) and hands node-server plain responses it writes in one call. What the Web path did must still
// hold: the app's other routes get their body, middleware sees and changes the answer, a body read first still works.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import {
  client,
  createFixture,
  eventually,
  FIXTURE_CARD,
  type Listening,
  listen,
  read,
  sse,
  userMessage,
  within,
} from '@a2a/adapter-testsuite';
import { createA2AHandler, InMemoryTaskStore, type MountableHandler } from '@a2a/core';
import { isPrepared } from '@a2a/core/adapter';
import { ClientFactory } from '@a2a-js/sdk/client';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
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

/** The server side's socket writes, each as the text that left in it (what the Writable hands its `_write`/`_writev`). */
function recordWrites(target: Server): string[] {
  const writes: string[] = [];
  target.on('connection', (socket: Socket) => {
    type Chunks = { chunk: unknown }[];
    const raw = socket as unknown as {
      _write(chunk: unknown, encoding: string, done: () => void): void;
      _writev(chunks: Chunks, done: () => void): void;
    };
    const write = raw._write.bind(socket);
    const writev = raw._writev.bind(socket);
    raw._write = (chunk, encoding, done) => {
      writes.push(String(chunk));
      write(chunk, encoding, done);
    };
    raw._writev = (chunks, done) => {
      writes.push(chunks.map((c) => String(c.chunk)).join(''));
      writev(chunks, done);
    };
  });
  return writes;
}

describe('@a2a/hono streams on @hono/node-server', () => {
  it("sends a stream's status line and headers with its first event in one socket write; later events follow", async () => {
    const fixture = createFixture(undefined, { basePath: '/a2a' });
    const app = new Hono();
    app.use(a2aMiddleware(fixture.a2a));
    const host = createAdaptorServer({ fetch: app.fetch }) as Server;
    const writes = recordWrites(host);
    server = await listen(host);

    const answer = await client(`${server.url}/a2a`).rpcFetch(
      'SendStreamingMessage',
      { message: userMessage('gated slow') },
      { 'a2a-version': '1.0', accept: 'text/event-stream' },
    );
    const events = sse(answer);
    const first = await within(events.next(), 3000, 'first event');
    expect(first?.id).toBe('1');
    expect(JSON.parse(first?.data ?? '{}').result.task.id).toBeTruthy();
    // node-server flushes the headers on their own before it reads the body: held until the first chunk is written.
    expect(writes[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n[0-9a-f]+\r\nid: 1\ndata: /);
    const working = await within(events.next(), 3000, 'working');
    expect(JSON.parse(working?.data ?? '{}').result.statusUpdate.status.state).toBe('TASK_STATE_WORKING');

    // The agent's later events (after the hold) still leave, each when it comes: this one before the next exists.
    fixture.release('slow');
    const chunk = await within(events.next(), 3000, 'the artifact');
    expect(JSON.parse(chunk?.data ?? '{}').result.artifactUpdate.artifact.parts[0].text).toBe('chunk 1');
    fixture.release('slow-2');
    const rest = await within(events.rest(), 3000, 'the end');
    expect(JSON.parse(rest.at(-1)?.data ?? '{}').result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // Separate events with consecutive ids.
    const ids = [first, working, chunk, ...rest].map((e) => Number(e?.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
  });

  it('answers a stream that is over when its answer is made with its whole text in one write, framed by Content-Length: the same events for an SSE parser and the SDK client', async () => {
    // Ten events, the last ones published after the handler has answered with the first (so they are let in before
    // the answer is made); the in-memory store says which events are already there (the fixture's own store does not).
    const a2a = createA2AHandler({
      agentCard: FIXTURE_CARD,
      basePath: '/a2a',
      taskStore: new InMemoryTaskStore(),
      executor: {
        async execute(ctx) {
          await ctx.submit();
          await ctx.working('on it');
          for (let i = 0; i < 8; i++) await ctx.artifact({ artifactId: 'out', text: `chunk ${i}`, append: i > 0 });
          return ctx.complete('done');
        },
      },
    });
    const app = new Hono();
    app.use(a2aMiddleware(a2a));
    const host = createAdaptorServer({ fetch: app.fetch }) as Server;
    const writes = recordWrites(host);
    server = await listen(host);

    const answer = await client(`${server.url}/a2a`).rpcFetch(
      'SendStreamingMessage',
      { message: userMessage('all at once') },
      { 'a2a-version': '1.0', accept: 'text/event-stream' },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(answer.headers.get('transfer-encoding')).toBeNull();
    const length = Number(answer.headers.get('content-length'));
    const events = await sse(answer).rest();
    const states = events.map((e) => {
      const result = JSON.parse(e.data).result;
      return result.task?.status.state ?? result.statusUpdate?.status.state ?? 'artifact';
    });
    expect(states).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      ...Array(8).fill('artifact'),
      'TASK_STATE_COMPLETED',
    ]);
    expect(events.map((e) => e.id)).toEqual(states.map((_, i) => String(i + 1)));
    // Head and every event in the one socket write, the length the bytes of the events.
    expect(writes).toHaveLength(1);
    const [head, body] = (writes[0] ?? '').split('\r\n\r\n');
    expect(head).toMatch(/\r\ncontent-length: \d+(\r\n|$)/i);
    expect(Buffer.byteLength(body ?? '')).toBe(length);
    expect(body).toMatch(/^id: 1\ndata: [\s\S]*TASK_STATE_COMPLETED[\s\S]*\n\n$/);

    const agent = await new ClientFactory().createFromUrl(server.url);
    const seen: string[] = [];
    for await (const event of agent.sendMessageStream({
      message: {
        messageId: crypto.randomUUID(),
        role: 1,
        parts: [{ content: { $case: 'text', value: 'sdk stream' } }],
      },
    } as unknown as Parameters<typeof agent.sendMessageStream>[0])) {
      seen.push(Object.keys(event as object).join());
    }
    expect(seen.length).toBe(11);
  });

  it("keeps an earlier middleware's headers (CORS) on a stream, and releases it when the client leaves mid-stream", async () => {
    const fixture = createFixture(undefined, { basePath: '/a2a' });
    const app = new Hono();
    app.use(cors({ origin: 'https://app.example' }));
    app.use(a2aMiddleware(fixture.a2a));
    server = await listen(createAdaptorServer({ fetch: app.fetch }) as Server);

    const abort = new AbortController();
    const answer = await client(`${server.url}/a2a`).rpcFetch(
      'SendStreamingMessage',
      { message: userMessage('gated left') },
      { 'a2a-version': '1.0', accept: 'text/event-stream', origin: 'https://app.example' },
      abort.signal,
    );
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = JSON.parse((await within(sse(answer).next(), 3000, 'first event'))?.data ?? '{}');
    const taskId: string = first.result.task.id;
    expect(fixture.openSubscriptions(taskId)).toBeGreaterThan(0);
    abort.abort();
    await eventually(() => fixture.openSubscriptions(taskId) === 0, 3000);
    fixture.release('left');
    fixture.release('left-2');
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
