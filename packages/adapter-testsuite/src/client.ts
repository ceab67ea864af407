import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field
  body: any;
}

export async function read(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

/** A client for one mounted server: `base` = origin + mount path. */
export function client(base: string) {
  let id = 0;
  const rpcRaw = (body: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${base}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      ...(signal && { signal }),
    });
  return {
    base,
    rpcRaw,
    rpcFetch: (method: string, params: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
      rpcRaw(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), headers, signal),
    rpc: async (method: string, params: unknown, headers: Record<string, string> = {}) =>
      read(await rpcRaw(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), headers)),
    restFetch: (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
      signal?: AbortSignal,
    ) =>
      fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        ...(signal && { signal }),
      }),
    rest: async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      read(
        await fetch(`${base}${path}`, {
          method,
          headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        }),
      ),
  };
}
export type Client = ReturnType<typeof client>;

/** Reads SSE events (and comments) one at a time as they arrive. */
export function sse(response: Response) {
  if (!response.body) throw new Error('no body');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const queue: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (e) => queue.push(e), onComment: (c) => comments.push(c) });
  let ended = false;
  const pump = async () => {
    const { done, value } = await reader.read();
    if (done) ended = true;
    else parser.feed(decoder.decode(value, { stream: true }));
  };
  return {
    comments,
    /** The next event; `undefined` once the stream ended. */
    async next(): Promise<EventSourceMessage | undefined> {
      while (queue.length === 0 && !ended) await pump();
      return queue.shift();
    },
    async rest(): Promise<EventSourceMessage[]> {
      const out: EventSourceMessage[] = [];
      for (let e = await this.next(); e; e = await this.next()) out.push(e);
      return out;
    },
    /** Reads until `n` comments were seen. */
    async untilComments(n: number): Promise<void> {
      while (comments.length < n && !ended) await pump();
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

export interface EventuallyOptions {
  /** Milliseconds between two checks; default 10. */
  every?: number;
  /** Count a `check` that throws or rejects as not met yet, instead of failing at once (e.g. while a database is down). */
  retryErrors?: boolean;
}

/** Polls until `check` is truthy, or fails after `ms`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  ms = 3000,
  { every = 10, retryErrors = false }: EventuallyOptions = {},
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = retryErrors
      ? await Promise.resolve()
          .then(check)
          .catch(() => undefined)
      : await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Rejects when `promise` takes longer than `ms` (liveness bound, not a timing assertion). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
