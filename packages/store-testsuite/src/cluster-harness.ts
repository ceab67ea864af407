import { type ChildProcess, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

// The multi-instance harness of the durable stores: each instance a child process serving one store (a program that
// calls `serveClusterInstance`, see cluster-instance.ts), and the HTTP and SSE helpers their tests talk to them with.

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  /** Task ids whose executor signal aborted in this instance. */
  aborted: string[];
  stop(): Promise<void>;
  /** SIGTERM (graceful shutdown); resolves with the exit code. */
  terminate(): Promise<number | null>;
}

/**
 * Starts instances of `script` (a TypeScript program that calls `serveClusterInstance`), each in a child process
 * through tsx with the `@a2a/source` condition, in `cwd` (default: the script's folder; tsx must resolve from there).
 */
export function instanceStarter(
  script: string,
  cwd = dirname(script),
): (name: string, env: Record<string, string>) => Promise<Instance> {
  return (name, env) => startInstance(script, cwd, name, env);
}

async function startInstance(
  script: string,
  cwd: string,
  name: string,
  env: Record<string, string>,
): Promise<Instance> {
  const child = spawn(process.execPath, ['--conditions=@a2a/source', '--import', 'tsx', script], {
    cwd,
    env: { ...process.env, A2A_INSTANCE_ID: name, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const aborted: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      let message: { port?: number; aborted?: string };
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      if (message.port) {
        clearTimeout(timer);
        resolve(message.port);
      }
      if (message.aborted) aborted.push(message.aborted);
    });
  });
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    child,
    aborted,
    terminate: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      return exited;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export async function rest(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export async function rpc(base: string, method: string, params: unknown) {
  const response = await fetch(`${base}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

export const message = (text: string) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] });

/** An SSE stream (POST, as both bindings stream): events one at a time with their ids. */
export async function openStream(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const queue: EventSourceMessage[] = [];
  let ended = false;
  let failed: unknown;
  let wake: (() => void) | undefined;
  const parser = createParser({ onEvent: (e) => queue.push(e) });
  void (async () => {
    try {
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        wake?.();
      }
    } catch (error) {
      failed = error;
    }
    ended = true;
    wake?.();
  })();
  return {
    status: response.status,
    /** The next event, or `undefined` when the stream ended (or broke: see `failed`). */
    async next(timeoutMs = 10_000): Promise<EventSourceMessage | undefined> {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0 && !ended) {
        if (Date.now() > deadline) throw new Error('no SSE event in time');
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return queue.shift();
    },
    get failed() {
      return failed;
    },
    close: () => controller.abort(),
  };
}

/**
 * Polls `check` every 50 ms until it returns something truthy, for at most `timeoutMs` (a bound, not a timing
 * assertion); a check that throws counts as not yet (an instance restarting, a request refused meanwhile).
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value) return value as T;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
