import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { client, userMessage } from './client.js';
import { createFixture, FIXTURE_MAX_BODY, type Fixture } from './fixture.js';
import type { AdapterHarness, StartedServer } from './harness.js';
import { RawConnection, type RawResponse } from './raw-http.js';

const MOUNTS = ['', '/a2a'];
/** Over every limit in front of the handler: the fixture's 64 KiB, express.json()'s 100 kB, Hapi's 1 MB `maxBytes`. */
const OVER_EVERY_LIMIT = 2 * 1024 * 1024;
/** What no answer may contain: a stack frame or a file path. */
const STACK = /\bat [\w.<>]+ \(|node:internal|\/node_modules\/|\.[cm]?[jt]s:\d+/;
/** What no answer on an A2A path may contain: the above, or a framework's HTML page. */
const LEAKS = new RegExp(`${STACK.source}|<html|<!DOCTYPE|<pre>`, 'i');

/** A SendMessage body whose text makes it `size` bytes long. */
const bigSend = (size: number) => JSON.stringify({ message: userMessage('x'.repeat(size)) });
const chunks = (text: string, size = 64 * 1024): Buffer[] => {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
};

interface RawReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field
  body: any;
}

/** A keep-alive connection written as request heads (`METHOD path HTTP/1.1`, `name: value`...) and bodies. */
class Connection {
  #answer: Promise<RawResponse> | undefined;
  private constructor(private readonly raw: RawConnection) {}

  static async open(origin: string): Promise<Connection> {
    const { hostname, port } = new URL(origin);
    return new Connection(await RawConnection.open(hostname, Number(port)));
  }

  get closed(): boolean {
    return this.raw.isClosed;
  }

  /** Sends a request (a list of chunks goes chunked); its answer is read with {@link read}. */
  async send(head: string[], body?: string | Buffer | Buffer[]): Promise<void> {
    const [method = '', path = ''] = (head[0] ?? '').split(' ');
    const headers = head.slice(1).map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] as const;
    });
    const chunked = Array.isArray(body);
    const bytes = chunked ? Buffer.concat(body) : body;
    const request = { method, path, headers, ...(bytes !== undefined && { body: bytes }) };
    this.#answer = this.raw.send(chunked ? { ...request, chunkSize: body[0]?.length ?? 1 } : request, 15_000);
    this.#answer.catch(() => {}); // read() reports it
  }

  async read(): Promise<RawReply> {
    const answer = await (this.#answer ?? Promise.reject(new Error('nothing sent')));
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      body = undefined;
    }
    return { status: answer.status, headers: answer.headers, text: answer.body, body };
  }

  close(): void {
    this.raw.close();
  }
}

/** `value` wrapped in `depth` levels of `{ "a": ... }` (built as text: no recursion anywhere). */
export const nested = (depth: number, leaf = '1') => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;

/** An A2A error body: a JSON-RPC error envelope or a google.rpc.Status, and nothing that leaks internals. */
export function expectA2AError(reply: RawReply | { status: number; text: string; body: unknown }, status: number) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.text).not.toMatch(LEAKS);
  const body = reply.body as { error?: { code?: unknown } } | undefined;
  expect(typeof body?.error?.code, reply.text).toBe('number');
}

/**
 * Requests no client should send, through the adapter with and without the framework's body parser: each is
 * answered with an A2A error (never a 5xx, a stack or framework HTML), stores nothing, and leaves the process and
 * the keep-alive connection serving the next request.
 */
export function defineBadInputCases(harness: AdapterHarness): void {
  for (const mountPath of MOUNTS) {
    for (const bodyParser of [false, true]) {
      describe(`bad input: mount '${mountPath || '/'}', body parser ${bodyParser ? 'on' : 'off'}`, () => {
        const s = {} as { fixture: Fixture; server: StartedServer; origin: string; base: string };
        beforeAll(async () => {
          s.fixture = createFixture();
          s.server = await harness.start(s.fixture.a2a, {
            mountPath,
            bodyParser,
            compression: false,
            contextFromHeader: true,
            trustProxy: true,
          });
          s.origin = s.server.baseUrl.replace(/\/$/, '');
          s.base = `${s.origin}${mountPath}`;
        });
        afterAll(() => s.server?.close());

        // An exception thrown outside any request (a stream event listener) would end a real process.
        const uncaught: unknown[] = [];
        const record = (error: unknown) => void uncaught.push(error);
        beforeEach(() => {
          uncaught.length = 0;
          process.on('uncaughtException', record);
          process.on('unhandledRejection', record);
        });
        let conn: Connection | undefined;
        afterEach(() => {
          process.off('uncaughtException', record);
          process.off('unhandledRejection', record);
          conn?.close();
        });

        /** The next answer on `c`; fails at once (instead of hanging) when something was thrown outside a request. */
        const answer = async (c: Connection): Promise<RawReply> => {
          let timer: ReturnType<typeof setInterval> | undefined;
          const crashed = new Promise<never>((_, reject) => {
            timer = setInterval(() => {
              if (uncaught.length) reject(new Error(`uncaught in the server: ${String(uncaught[0])}`));
            }, 20);
          });
          return Promise.race([c.read(), crashed]).finally(() => clearInterval(timer));
        };

        const open = async () => {
          conn = await Connection.open(s.origin);
          return conn;
        };
        const head = (method: string, path: string, extra: string[] = []) => [
          `${method} ${mountPath}${path} HTTP/1.1`,
          `host: ${new URL(s.origin).host}`,
          ...extra,
        ];
        const json = 'content-type: application/json';
        /** The same connection still serves: a small SendMessage is answered 200. */
        const stillServes = async (c: Connection) => {
          await c.send(head('POST', '/message:send', [json]), JSON.stringify({ message: userMessage('again') }));
          const again = await answer(c);
          expect(again.status, again.text).toBe(200);
          expect(again.body.task.status.state).toBe('TASK_STATE_COMPLETED');
        };

        it('answers an over-limit body with the A2A 413, chunked or not, and keeps the connection', async () => {
          const c = await open();
          const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: JSON.parse(bigSend(16)) });
          const bigRpc = rpc.replace('"xxxxxxxxxxxxxxxx"', `"${'x'.repeat(OVER_EVERY_LIMIT)}"`);
          for (const [path, body] of [
            ['/message:send', bigSend(OVER_EVERY_LIMIT)],
            ['/', bigRpc],
            ['/message:send', bigSend(FIXTURE_MAX_BODY * 2)],
            ['/', bigRpc.slice(0, FIXTURE_MAX_BODY * 2)],
          ] as const) {
            for (const chunked of [true, false]) {
              await c.send(head('POST', path, [json]), chunked ? chunks(body) : body);
              const reply = await answer(c);
              expectA2AError(reply, 413);
              if (path === '/') expect(reply.body.error.code).toBe(-32600);
              await stillServes(c);
            }
          }
          expect(uncaught).toEqual([]);
        });

        it('answers TRACE on A2A paths with 405 and Allow, and keeps the connection', async () => {
          const c = await open();
          for (const path of ['/message:send', '/tasks', '/tasks/t1']) {
            await c.send(head('TRACE', path));
            const reply = await c.read();
            expectA2AError(reply, 405);
            expect(reply.headers.allow).toMatch(/GET|POST/);
          }
          // Not a route of its own (the JSON-RPC path answers POST only): the host's answer, but never a 5xx.
          await c.send(head('TRACE', '/', ['content-length: 0']));
          const root = await c.read();
          expect(root.status).toBeLessThan(500);
          expect(root.text).not.toMatch(STACK);
          if (!c.closed) await stillServes(c);
          expect(uncaught).toEqual([]);
        });

        it('answers an invalid Host header with 400 and an A2A error body', async () => {
          for (const host of ['a b', '[::1', 'x:99999', 'a%zz', 'a/b', '@', '[]', ':']) {
            const c = await Connection.open(s.origin);
            try {
              const send = (method: string, path: string, body?: string) =>
                c.send([`${method} ${mountPath}${path} HTTP/1.1`, `host: ${host}`, json], body);
              await send('POST', '/', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }));
              const rpc = await c.read();
              // Some hosts refuse it themselves before any route (Hapi): a 400 all the same, never a 5xx.
              expect(rpc.status, `${host}: ${rpc.text}`).toBe(400);
              expect(rpc.text).not.toMatch(LEAKS);
              if (rpc.body?.jsonrpc) expect(rpc.body.error.code).toBe(-32600);
              if (c.closed) continue;
              for (const path of ['/tasks', '/tasks/no-such-task', '/.well-known/agent-card.json']) {
                await send('GET', path);
                const r = await c.read();
                expect(r.status, `${host} ${path}: ${r.text}`).toBe(400);
                expect(r.body?.error?.status, `${host} ${path}: not a google.rpc.Status: ${r.text}`).toBe(
                  'INVALID_ARGUMENT',
                );
              }
            } finally {
              c.close();
            }
          }
          expect(uncaught).toEqual([]);
        });

        it('refuses JSON nested deeper than the limit naming the field, and stores nothing', async () => {
          const listed = async () =>
            (await client(s.base).rest('GET', '/tasks', undefined, { 'x-test-user': 'deep' })).body.tasks.length;
          const before = await listed();
          const user = 'x-test-user: deep';
          const c = await open();
          const message = (where: 'metadata' | 'data', depth: number) =>
            where === 'metadata'
              ? `{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}],"metadata":${nested(depth)}}`
              : `{"messageId":"m","role":"ROLE_USER","parts":[{"data":${nested(depth)}}]}`;
          for (const where of ['metadata', 'data'] as const) {
            await c.send(head('POST', '/message:send', [json, user]), `{"message":${message(where, 10_000)}}`);
            const rest = await c.read();
            expectA2AError(rest, 400);
            expect(rest.body.error.message).toMatch(where === 'metadata' ? /message\.metadata/ : /message\.parts/);
            const rpcBody = `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":${message(where, 10_000)}}}`;
            await c.send(head('POST', '/', [json, user]), rpcBody);
            const rpc = await c.read();
            expect(rpc.status, rpc.text).toBe(200);
            expect(rpc.body.error.code).toBe(-32602);
            expect(rpc.body.error.message).toMatch(/message\.(metadata|parts)/);
            expect(rpc.body.id).toBe(7);
          }
          expect(await listed()).toBe(before);
          // Within the limit it is served, stored and read back.
          await c.send(head('POST', '/message:send', [json, user]), `{"message":${message('metadata', 40)}}`);
          expect((await c.read()).status).toBe(200);
          expect(await listed()).toBe(before + 1);
          expect(uncaught).toEqual([]);
        });

        it('answers a charset or Content-Encoding it cannot read with an A2A error, never a framework page', async () => {
          const c = await open();
          const send = JSON.stringify({ message: userMessage('odd encoding') });
          for (const extra of [
            ['content-type: application/json; charset=klingon'],
            ['content-type: application/json; charset=utf-16'],
            [json, 'content-encoding: gzip'],
            [json, 'content-encoding: klingon'],
            [json, 'content-encoding: gzip, br'],
          ]) {
            for (const path of ['/message:send', '/']) {
              const body = path === '/' ? `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":${send}}` : send;
              await c.send(head('POST', path, extra), body);
              const reply = await c.read();
              expect(reply.status, `${extra.join(', ')} ${path}: ${reply.text}`).toBeLessThan(500);
              expect(reply.text).not.toMatch(LEAKS);
              if (reply.status >= 400 || reply.body?.error) expectA2AError(reply, reply.status);
              if (c.closed) return;
            }
          }
          await stillServes(c);
          expect(uncaught).toEqual([]);
        });

        it('refuses non-finite numbers instead of reading them as unset', async () => {
          const c = client(s.base);
          const task = (await c.rest('POST', '/message:send', { message: userMessage('hello') })).body.task;
          for (const [method, params] of [
            ['GetTask', `{"id":"${task.id}","historyLength":-1e400}`],
            ['ListTasks', '{"pageSize":-1e400}'],
            ['ListTasks', '{"pageSize":1e400}'],
          ] as const) {
            const reply = await c.rpcRaw(`{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`);
            const body = await reply.json();
            expect(body.error?.code, JSON.stringify(body)).toBe(-32602);
          }
        });
      });
    }
  }
}
