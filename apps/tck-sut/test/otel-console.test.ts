import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The app as an operator runs it, with the OpenTelemetry SDK's standard environment: spans go to stdout.
const appDir = fileURLToPath(new URL('..', import.meta.url));

describe('OTEL_TRACES_EXPORTER=console', () => {
  let child: ChildProcess;
  let stdout = '';
  let url = '';

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@a2a/source', 'src/main.ts'], {
      cwd: appDir,
      env: { ...process.env, PORT: '0', OTEL_TRACES_EXPORTER: 'console', OTEL_METRICS_EXPORTER: 'none' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    url = await waitFor(() => /on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1], 40_000);
  }, 60_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('a SendMessage prints a span named after it, with the task id among its attributes', async () => {
    const response = await fetch(`${url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'tck-complete-task-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      }),
    });
    const taskId: string = (await response.json()).result.task.id;
    const span = await waitFor(
      () => {
        const start = stdout.indexOf("name: 'A2AService/SendMessage'");
        const end = start < 0 ? -1 : stdout.indexOf('links:', start);
        return end < 0 ? undefined : stdout.slice(start, end);
      },
      40_000,
      () => stdout,
    );
    expect(span).toContain(`'a2a.task.id': '${taskId}'`);
    expect(span).toContain("'rpc.method': 'SendMessage'");
  }, 60_000);
});

async function waitFor<T>(read: () => T | undefined, timeoutMs: number, output = () => ''): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for the app; its output:\n${output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
