import type { Server } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type A2AHandlerOptions, type A2AHttpHandler, createA2AHandler } from '../src/index.js';
import { createNodeHandler } from '../src/node/index.js';

export const card = {
  name: 'Test agent',
  description: 'An agent for tests',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
};

export interface TestServer {
  url: string;
  a2a: A2AHttpHandler;
  server: Server;
  close(): Promise<void>;
  rpc(
    method: string,
    params?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  rest(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

/** A real node:http server on 127.0.0.1:0; the `x-user` header becomes the caller. */
export async function startServer(options: A2AHandlerOptions): Promise<TestServer> {
  const a2a = createA2AHandler({ onError: () => {}, ...options });
  const listener = createNodeHandler(a2a, {
    context: (req) => {
      const user = req.headers['x-user'];
      return typeof user === 'string' ? { user: { id: user } } : undefined;
    },
  });
  const { url, server, close } = await listen((req, res) => void listener(req, res));
  let id = 0;
  const parse = async (r: Response) => {
    const text = await r.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: r.status, body, headers: r.headers };
  };
  return {
    url,
    a2a,
    server,
    close,
    rpc: async (method, params, headers = {}) =>
      parse(
        await fetch(`${url}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, ...(params !== undefined && { params }) }),
        }),
      ),
    rest: async (method, path, body, headers = {}) =>
      parse(
        await fetch(`${url}${path}`, {
          method,
          headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        }),
      ),
  };
}

/** Reads SSE events one at a time from a streaming response. */
export function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const queue: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (e) => queue.push(e), onComment: (c) => comments.push(c) });
  let ended = false;
  return {
    comments,
    /** The next event, or undefined when the stream ended. */
    async next(): Promise<EventSourceMessage | undefined> {
      while (queue.length === 0 && !ended) {
        const { done, value } = await reader.read();
        if (done) ended = true;
        else parser.feed(decoder.decode(value, { stream: true }));
      }
      return queue.shift();
    },
    async all(): Promise<EventSourceMessage[]> {
      const out: EventSourceMessage[] = [];
      for (let e = await this.next(); e; e = await this.next()) out.push(e);
      return out;
    },
    cancel: () => reader.cancel(),
  };
}

export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

export function deferred<T = void>() {
  let resolve!: (value: T | PromiseLike<T>) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Polls until `check` returns a truthy value (bounded): the shared helper, kept here for the tests' imports. */
export { eventually } from '@a2a/adapter-testsuite';
