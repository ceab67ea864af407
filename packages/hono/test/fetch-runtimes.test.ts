import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Hono sub-app on Bun's and Deno's own servers. The binaries come from the npm registry (.ci/run puts them in
// .ci/.cache); without them these tests are skipped, except under CI, where a missing runtime is a failure.
const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/hono-host.ts', import.meta.url));
const runtimes = [
  { name: 'bun', bin: process.env.A2A_TEST_BUN ?? `${root}.ci/.cache/bun/bun`, args: ['run', fixture] },
  {
    name: 'deno',
    bin: process.env.A2A_TEST_DENO ?? `${root}.ci/.cache/deno/deno`,
    // Sloppy imports: the sources import './x.js' for './x.ts', as TypeScript's NodeNext resolution wants.
    args: [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--node-modules-dir=manual',
      '--unstable-sloppy-imports',
      fixture,
    ],
  },
];

const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const message = (text: string) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] });

for (const runtime of runtimes) {
  const present = existsSync(runtime.bin);
  describe.skipIf(!present && !process.env.CI)(`Hono served by ${runtime.name}`, () => {
    let child: ChildProcess | undefined;
    let base = '';

    beforeAll(async () => {
      if (!present) throw new Error(`${runtime.name} binary missing at ${runtime.bin} (.ci/run fetches it)`);
      const started = spawn(runtime.bin, runtime.args, {
        cwd: fileURLToPath(new URL('..', import.meta.url)), // packages/hono: its node_modules resolve the imports
        env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      let stderr = '';
      started.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const port = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${runtime.name} did not start: ${stderr}`)), 20_000);
        started.once('exit', (code) => reject(new Error(`${runtime.name} exited (${code}): ${stderr}`)));
        createInterface({ input: started.stdout as NodeJS.ReadableStream }).on('line', (line) => {
          const ready = /^READY (\d+)$/.exec(line);
          if (!ready) return;
          clearTimeout(timer);
          resolve(ready[1] as string);
        });
      });
      base = `http://127.0.0.1:${port}`;
    }, 30_000);

    afterAll(() => {
      child?.kill();
    });

    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
        body,
      });

    it('serves the card under the mount with its URLs, and leaves other paths to Hono', async () => {
      const card = (await (await fetch(`${base}/a2a/.well-known/agent-card.json`)).json()) as {
        supportedInterfaces: { url: string }[];
      };
      expect(card.supportedInterfaces[0]?.url).toBe(`${base}/a2a/`);
      expect(await (await fetch(`${base}/a2a/host-route`)).text()).toBe('host');
      expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
    });

    it('answers JSON-RPC and REST, scoped to the caller from the context hook', async () => {
      const sent = (await (
        await post('/a2a', rpc(1, 'SendMessage', { message: message('hi') }), { 'x-user': 'alice' })
      ).json()) as { result: { task: { id: string; artifacts: { parts: { text: string }[] }[] } } };
      expect(sent.result.task.artifacts[0]?.parts[0]?.text).toBe('echo: hi');
      const own = await fetch(`${base}/a2a/tasks/${sent.result.task.id}`, { headers: { 'x-user': 'alice' } });
      expect(own.status).toBe(200);
      const other = await fetch(`${base}/a2a/tasks/${sent.result.task.id}`, { headers: { 'x-user': 'bob' } });
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
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk));
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
}
