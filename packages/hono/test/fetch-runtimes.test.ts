import { fileURLToPath } from 'node:url';
import { describeOnFetchRuntimes } from '@a2a/adapter-testsuite';
import { createParser } from 'eventsource-parser';
import { expect, it } from 'vitest';

// The Hono sub-app on Bun's and Deno's own servers. The binaries come from the npm registry (.ci/run puts them in
// .ci/.cache); without them these tests are skipped, except under CI, where a missing runtime is a failure.
const hostOptions = {
  fixture: fileURLToPath(new URL('./fixtures/hono-host.ts', import.meta.url)),
  cwd: fileURLToPath(new URL('..', import.meta.url)), // packages/hono: its node_modules resolve the imports
  denoAllow: ['net', 'env', 'read'],
};

const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const message = (text: string) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] });

describeOnFetchRuntimes('Hono served by', hostOptions, (host) => {
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${host.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
      body,
    });

  it('serves the card under the mount with its URLs, and leaves other paths to Hono', async () => {
    const card = (await (await fetch(`${host.base}/a2a/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { url: string }[];
    };
    expect(card.supportedInterfaces[0]?.url).toBe(`${host.base}/a2a/`);
    expect(await (await fetch(`${host.base}/a2a/host-route`)).text()).toBe('host');
    expect((await fetch(`${host.base}/elsewhere`)).status).toBe(404);
  });

  it('answers JSON-RPC and REST, scoped to the caller from the context hook', async () => {
    const sent = (await (
      await post('/a2a', rpc(1, 'SendMessage', { message: message('hi') }), { 'x-user': 'alice' })
    ).json()) as { result: { task: { id: string; artifacts: { parts: { text: string }[] }[] } } };
    expect(sent.result.task.artifacts[0]?.parts[0]?.text).toBe('echo: hi');
    const own = await fetch(`${host.base}/a2a/tasks/${sent.result.task.id}`, { headers: { 'x-user': 'alice' } });
    expect(own.status).toBe(200);
    const other = await fetch(`${host.base}/a2a/tasks/${sent.result.task.id}`, { headers: { 'x-user': 'bob' } });
    expect(other.status).toBe(404);
  });

  it('streams SSE events as they are produced', async () => {
    const response = await post('/a2a/message:stream', JSON.stringify({ message: message('stream') }), {
      accept: 'text/event-stream',
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events: string[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e.data) });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk));
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)).toContain('TASK_STATE_COMPLETED');
  });

  it('answers bad input the A2A way: malformed JSON, an over-limit body, then still serves', async () => {
    const broken = await post('/a2a', '{not json');
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const big = await post('/a2a/message:send', JSON.stringify({ message: message('x'.repeat(200 * 1024)) }));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { status: string } }).error.status).toBeTruthy();
    const again = await post('/a2a', rpc(2, 'SendMessage', { message: message('again') }));
    expect(again.status).toBe(200);
  });
});
