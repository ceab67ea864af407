import { checkAgent, formatReport } from '@a2a/check';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: smoke tests read the wire JSON field by field
type Json = any;

export interface RunningDemo {
  /** Base URL of the A2A routes, without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

async function rpc(base: string, method: string, params: unknown): Promise<Json> {
  const r = await fetch(`${base}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return r.json();
}

async function streamAll(base: string, path: string, body: unknown) {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const events: Json[] = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
  const reader = (r.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (let next = await reader.read(); !next.done; next = await reader.read())
    parser.feed(decoder.decode(next.value, { stream: true }));
  return { contentType: r.headers.get('content-type'), events };
}

const message = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

/** The smoke tests every demo app runs against its own server factory (started on port 0). */
export function defineDemoSmokeTests(start: () => Promise<RunningDemo>): void {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await start();
  });
  afterAll(() => demo.close());

  it('passes every MUST check of a2a-check, --send and --hostile included (what CI runs against the demo)', async () => {
    const report = await checkAgent(demo.url, { send: 'hello', hostile: true, timeoutMs: 5000 });
    const failed = report.results.filter((r) => r.status === 'fail' && r.level === 'MUST');
    expect(failed, formatReport(report)).toEqual([]);
    expect(report.results.find((r) => r.id === 'send.cancel')?.status).toBe('pass');
  });

  it('serves the playground at /playground', async () => {
    const page = await fetch(`${demo.url}/playground`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>A2A Playground</title>');
    expect((await fetch(`${demo.url}/playground/app.js`)).headers.get('content-type')).toMatch(/javascript/);
  });

  it('lists every interface it serves in its agent card', async () => {
    const card = await (await fetch(`${demo.url}/.well-known/agent-card.json`)).json();
    expect(card.capabilities.streaming).toBe(true);
    const bindings = card.supportedInterfaces.map((i: Json) => `${i.protocolBinding} ${i.url}`);
    expect(bindings).toEqual(expect.arrayContaining([`JSONRPC ${demo.url}/`, `HTTP+JSON ${demo.url}`]));
  });

  it('asks for a missing topic, then writes the poem on the same task (JSON-RPC)', async () => {
    const first = (await rpc(demo.url, 'SendMessage', { message: message('a poem please') })).result.task;
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(first.status.message.parts[0].text).toContain('What should the poem be about');
    const answer = message('autumn leaves', { taskId: first.id, contextId: first.contextId });
    const done = (await rpc(demo.url, 'SendMessage', { message: answer })).result.task;
    expect(done.id).toBe(first.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const poem = done.artifacts[0].parts.map((p: Json) => p.text).join('');
    expect(poem.split('\n').filter(Boolean)).toHaveLength(4);
    expect(poem).toContain('autumn leaves');
  });

  it('streams the poem as appended artifact chunks (HTTP+JSON + SSE)', async () => {
    const { contentType, events } = await streamAll(demo.url, '/message:stream', {
      message: message('write a poem about the sea'),
    });
    expect(contentType).toMatch(/^text\/event-stream/);
    const chunks = events.filter((e) => e.artifactUpdate).map((e) => e.artifactUpdate);
    expect(chunks).toHaveLength(4);
    expect(chunks.map((c) => Boolean(c.append))).toEqual([false, true, true, true]);
    expect(chunks.at(-1).lastChunk).toBe(true);
    expect(events.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('stops writing when the task is canceled', async () => {
    const params = { message: message('write a poem about time'), configuration: { returnImmediately: true } };
    const task = (await rpc(demo.url, 'SendMessage', params)).result.task;
    expect((await rpc(demo.url, 'CancelTask', { id: task.id })).result.status.state).toBe('TASK_STATE_CANCELED');
    await new Promise((r) => setTimeout(r, 300)); // longer than the rest of the poem would take
    const later = (await rpc(demo.url, 'GetTask', { id: task.id })).result;
    expect(later.status.state).toBe('TASK_STATE_CANCELED');
    const lines = (later.artifacts?.[0]?.parts ?? [])
      .map((p: Json) => p.text)
      .join('')
      .split('\n')
      .filter(Boolean);
    expect(lines.length).toBeLessThan(4);
  });
}
