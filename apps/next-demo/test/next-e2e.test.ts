import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { client, sse, userMessage } from '@a2a/adapter-testsuite';
import { checkAgent, formatReport } from '@a2a/check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const APP = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(APP, '..', '..');
const NEXT = join(APP, 'node_modules', 'next', 'dist', 'bin', 'next');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TURBO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** `next build && next start` on 127.0.0.1, as a user deploys it; the workspace packages it loads built first. */
describe('Next.js App Router route handlers over a2a.fetch (next build && next start)', () => {
  let next: ChildProcess | undefined;
  let origin = '';
  beforeAll(async () => {
    await exec('npx', ['-y', 'pnpm@10.34.8', 'build', '--filter=@a2a/next-demo^...'], { cwd: ROOT, env });
    await exec(process.execPath, [NEXT, 'build'], { cwd: APP, env, maxBuffer: 16 * 1024 * 1024 });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    next = spawn(process.execPath, [NEXT, 'start', '-H', '127.0.0.1', '-p', String(port)], { cwd: APP, env });
    let output = '';
    next.stdout?.on('data', (chunk) => (output += chunk));
    next.stderr?.on('data', (chunk) => (output += chunk));
    for (let i = 0; !/Ready/.test(output); i++) {
      if (next.exitCode !== null || i > 600) throw new Error(`next start did not come up:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 900_000);
  afterAll(async () => {
    if (next && next.exitCode === null) {
      next.kill('SIGTERM');
      await once(next, 'exit');
    }
  });

  // What CI runs against every demo (apps/demo-agent's smoke tests): here against `next start`, the built app.
  it('passes every MUST check of a2a-check, --send and --hostile included', async () => {
    const report = await checkAgent(origin, { send: 'hello', hostile: true, timeoutMs: 5000 });
    const failed = report.results.filter((r) => r.status === 'fail' && r.level === 'MUST');
    expect(failed, formatReport(report)).toEqual([]);
    expect(report.results.find((r) => r.id === 'send.cancel')?.status).toBe('pass');
  }, 120_000);

  it('serves the agent card at the origin, with interface URLs under /a2a on the origin the client used', async () => {
    const res = await fetch(`${origin}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card = await res.json();
    expect(card.name).toBe('Poet');
    expect(card.supportedInterfaces.map((i: { url: string }) => i.url)).toContain(`${origin}/a2a/`);
  });

  it('builds the card from the X-Forwarded-Host/-Proto a proxy sets (trustProxy), and serves the legacy card path', async () => {
    const proxied = await fetch(`${origin}/.well-known/agent-card.json`, {
      headers: { 'x-forwarded-host': 'agent.example.com', 'x-forwarded-proto': 'https' },
    });
    const card = await proxied.json();
    expect(card.supportedInterfaces.map((i: { url: string }) => i.url)).toContain('https://agent.example.com/a2a/');
    const legacy = await fetch(`${origin}/.well-known/agent.json`);
    expect(legacy.status).toBe(200);
    expect((await legacy.json()).url).toBe(`${origin}/a2a/`);
  });

  it('answers a POST to the advertised JSON-RPC URL itself, without a redirect', async () => {
    const answer = await fetch(`${origin}/a2a/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: userMessage('hi') } }),
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).result.task.id).toBeTruthy();
  });

  it('answers SendMessage (JSON-RPC) and GetTask, and leaves other paths to Next (404)', async () => {
    const rpc = client(`${origin}/a2a`);
    const sent = await rpc.rpc('SendMessage', { message: userMessage('write a poem about the sea') });
    expect(sent.status).toBe(200);
    const id = sent.body.result.task.id;
    // The task completes within a few streamed lines; GetTask over REST sees it.
    let state = '';
    for (let i = 0; i < 100 && state !== 'TASK_STATE_COMPLETED'; i++) {
      const got = await rpc.rest('GET', `/tasks/${id}`);
      state = got.body.status.state;
      if (state !== 'TASK_STATE_COMPLETED') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(state).toBe('TASK_STATE_COMPLETED');
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
  });

  it('streams SendStreamingMessage as SSE, event by event, to the final status', async () => {
    const res = await client(`${origin}/a2a`).rpcFetch('SendStreamingMessage', {
      message: userMessage('write a poem about the moon'),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sse(res);
    const seen: string[] = [];
    for (;;) {
      const event = await events.next();
      if (!event) break;
      const result = JSON.parse(event.data).result;
      seen.push(Object.keys(result)[0] ?? '');
      if (result.statusUpdate?.status.state === 'TASK_STATE_COMPLETED') break;
    }
    expect(seen[0]).toBe('task');
    expect(seen.filter((k) => k === 'artifactUpdate')).toHaveLength(4);
    expect(seen.at(-1)).toBe('statusUpdate');
  });
});
