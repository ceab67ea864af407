import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, executorArg, startServer } from '../src/main.js';
import { chunkStamps } from '../src/paced-chunks.js';

const v1 = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const send = (text: string, method = 'SendMessage', messageId: string = crypto.randomUUID()) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      message: {
        messageId,
        role: 'ROLE_USER',
        parts: [{ text }],
      },
    },
  });

// `node+compat`: the Node bridge serving the SDK-style echo agent through @a2a/sdk-compat (`--executor sdk-compat`).
describe.each([...ADAPTERS, 'node+compat' as const])('bench server (%s)', (adapter) => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server =
      adapter === 'node+compat'
        ? await startServer('node', 0, '127.0.0.1', { executor: await executorArg('node', 'sdk-compat') })
        : await startServer(adapter, 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('serves the agent card at the well-known path', async () => {
    const response = await fetch(`${base}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('Bench Echo Agent');
  });

  it('answers SendMessage with a completed echo task', async () => {
    const response = await fetch(`${base}/a2a/jsonrpc`, {
      method: 'POST',
      headers: v1,
      body: send('hello'),
    });
    const json = (await response.json()) as {
      result: {
        task: {
          status: { state: string };
          artifacts: { parts: { text: string }[] }[];
        };
      };
    };
    expect(json.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(json.result.task.artifacts[0]?.parts[0]?.text).toBe('echo: hello');
  });

  it('answers message:X with an agent message and input-required with a task left INPUT_REQUIRED', async () => {
    const rpc = async (text: string) =>
      (await (await fetch(`${base}/a2a/jsonrpc`, { method: 'POST', headers: v1, body: send(text) })).json()) as {
        result: { message?: { role: string; parts: { text: string }[] }; task?: { status: { state: string } } };
      };
    const message = (await rpc('message:hi')).result.message;
    expect(message?.role).toBe('ROLE_AGENT');
    expect(message?.parts[0]?.text).toBe('echo: hi');
    if (adapter !== 'sdk') {
      expect((await rpc('input-required')).result.task?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      return;
    }
    // The SDK server publishes only a Task event in INPUT_REQUIRED, which its SDK does not treat as the end of the
    // call (it waits for a status update), so the answer never comes: read the stream's first event instead.
    const stop = new AbortController();
    const response = await fetch(`${base}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...v1, accept: 'text/event-stream' },
      body: send('input-required', 'SendStreamingMessage'),
      signal: stop.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let first: string | undefined;
    const parser = createParser({
      onEvent: (event) => {
        first ??= event.data;
      },
    });
    while (first === undefined) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    stop.abort();
    expect(JSON.parse(first ?? '{}').result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('streams exactly N events ending with COMPLETED', async () => {
    const response = await fetch(`${base}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...v1, accept: 'text/event-stream' },
      body: send('stream:10', 'SendStreamingMessage'),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: string[] = [];
    const parser = createParser({
      onEvent: (event) => events.push(event.data),
    });
    parser.feed(await response.text());
    expect(events).toHaveLength(10);
    expect(JSON.parse(events.at(-1) as string).result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('streams paced chunks for a bench-chunks messageId, each stamped with its scheduled and publish times, then COMPLETED', async () => {
    const before = Date.now();
    const response = await fetch(`${base}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...v1, accept: 'text/event-stream' },
      body: send('hi', 'SendStreamingMessage', 'bench-chunks-4-0'),
    });
    const events: { result: Record<string, { artifact?: { parts: { text: string }[] }; lastChunk?: boolean }> }[] = [];
    const parser = createParser({ onEvent: (event) => events.push(JSON.parse(event.data)) });
    parser.feed(await response.text());
    const chunks = events.flatMap((e) => (e.result.artifactUpdate ? [e.result.artifactUpdate] : []));
    const texts = chunks.map((c) => c.artifact?.parts[0]?.text ?? '');
    expect(texts.map((t) => t.replace(/ s=.*/, ''))).toEqual(['chunk 0', 'chunk 1', 'chunk 2', 'chunk 3']);
    for (const text of texts) {
      const stamps = chunkStamps(text);
      expect(stamps?.scheduled).toBeGreaterThanOrEqual(before - 1);
      expect(stamps?.sent).toBeGreaterThanOrEqual(stamps?.scheduled ?? Number.NaN);
    }
    expect(chunks.at(-1)?.lastChunk).toBe(true);
    const last = events.at(-1)?.result as { statusUpdate?: { status: { state: string } } };
    expect(last.statusUpdate?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('serves the raw framework echo and memory figures', async () => {
    const raw = await fetch(`${base}/raw/echo`, {
      method: 'POST',
      headers: v1,
      body: send('hi'),
    });
    expect(await raw.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { echo: 'hi' },
    });
    // A malformed body is the framework's refusal, not a thrown listener: the server answers the next call.
    const bad = await fetch(`${base}/raw/echo`, { method: 'POST', headers: v1, body: '{"jsonrpc":' });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    await bad.arrayBuffer();
    const again = await fetch(`${base}/raw/echo`, { method: 'POST', headers: v1, body: send('again') });
    expect(((await again.json()) as { result: { echo: string } }).result.echo).toBe('again');
    const mem = (await (await fetch(`${base}/__bench/mem`)).json()) as {
      heapUsed: number;
      rss: number;
    };
    expect(mem.heapUsed).toBeGreaterThan(0);
    expect(mem.rss).toBeGreaterThan(mem.heapUsed);
  });
});

// The compat rows compare the SDK-style echo agent through @a2a/sdk-compat with the native one: they must answer the
// same JSON (ids and timestamps aside), or the rows would measure different answers. A stream's `append: false` and
// `lastChunk: false` are the one difference left: the native agent states them, the SDK (whose JSON omits false) and
// so the compat layer do not.
describe('the SDK-style echo agent through sdk-compat answers as the native one', () => {
  const servers: Server[] = [];
  const bases: string[] = [];
  beforeAll(async () => {
    for (const executor of [undefined, await executorArg('node', 'sdk-compat')]) {
      const server = await startServer('node', 0, '127.0.0.1', { executor });
      servers.push(server);
      bases.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

  const normalized = (text: string) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, 'TIME')
      .replace(/,"append":false|,"lastChunk":false/g, '');

  it.each([
    ['SendMessage', 'hello'],
    ['SendStreamingMessage', 'stream:10'],
  ])('%s', async (method, text) => {
    const answers = await Promise.all(
      bases.map(async (base) => {
        const response = await fetch(`${base}/a2a/jsonrpc`, {
          method: 'POST',
          headers: { ...v1, accept: method === 'SendMessage' ? 'application/json' : 'text/event-stream' },
          body: send(text, method, 'same-message-id'),
        });
        return normalized(await response.text());
      }),
    );
    expect(answers[1]).toBe(answers[0]);
  });
});
