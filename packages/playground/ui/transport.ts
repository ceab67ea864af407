import { createParser } from 'eventsource-parser';
import type { ListTasksResult, Message, StreamResult, Task } from './types.js';
import { fromV03Result, fromV03Task, toV03Message } from './v03.js';
import type { WireLog } from './wire-log.js';

// The page's one call layer (JSON-RPC binding). Calls to the page's own origin go straight to the agent; calls to any
// other origin go through the playground's SSRF-guarded proxy. Kept behind this small interface so @a2a/client can
// replace the wire code without touching the page.

export type ProtocolVersion = '1.0' | '0.3';

export interface Connection {
  /** The agent's JSON-RPC URL (from its card). */
  endpoint: string;
  version: ProtocolVersion;
  /** Authorization and custom headers, sent on every call. */
  headers: Record<string, string>;
}

export class CallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

export interface StreamEvent {
  /** The SSE `id`: the event's sequence number in the task's log. */
  seq?: string;
  result: StreamResult;
}

const METHODS = {
  '1.0': {
    send: 'SendMessage',
    stream: 'SendStreamingMessage',
    get: 'GetTask',
    cancel: 'CancelTask',
    list: 'ListTasks',
    subscribe: 'SubscribeToTask',
  },
  '0.3': {
    send: 'message/send',
    stream: 'message/stream',
    get: 'tasks/get',
    cancel: 'tasks/cancel',
    list: undefined,
    subscribe: 'tasks/resubscribe',
  },
} as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class AgentLink {
  private nextId = 1;

  constructor(
    readonly connection: Connection,
    private readonly proxyUrl: string,
    private readonly log: WireLog,
  ) {}

  get supportsList(): boolean {
    return METHODS[this.connection.version].list !== undefined;
  }

  async send(message: Message): Promise<StreamResult> {
    const v03 = this.connection.version === '0.3';
    const result = await this.call('send', { message: v03 ? toV03Message(message) : message });
    return v03 ? fromV03Result(result) : (result as StreamResult);
  }

  async getTask(id: string): Promise<Task> {
    const task = await this.call('get', { id });
    return this.connection.version === '0.3' ? fromV03Task(task) : (task as Task);
  }

  async cancel(id: string): Promise<Task> {
    const task = await this.call('cancel', { id });
    return this.connection.version === '0.3' ? fromV03Task(task) : (task as Task);
  }

  async listTasks(filter: { contextId?: string; status?: string; pageSize?: number }): Promise<ListTasksResult> {
    return (await this.call('list', filter)) as ListTasksResult;
  }

  /** SendStreamingMessage: every event to `onEvent` as it arrives; resolves when the stream ends. */
  sendStreaming(message: Message, onEvent: (e: StreamEvent) => void, signal?: AbortSignal): Promise<void> {
    const v03 = this.connection.version === '0.3';
    return this.stream('stream', { message: v03 ? toV03Message(message) : message }, onEvent, signal);
  }

  /** SubscribeToTask, resuming after `lastEventId` when given (events up to it are not sent again). */
  subscribe(id: string, onEvent: (e: StreamEvent) => void, lastEventId?: string, signal?: AbortSignal): Promise<void> {
    return this.stream('subscribe', { id }, onEvent, signal, lastEventId);
  }

  private method(op: keyof (typeof METHODS)['1.0']): string {
    const method = METHODS[this.connection.version][op];
    if (!method) throw new CallError(`A2A ${this.connection.version} has no ${op} operation`);
    return method;
  }

  private request(op: keyof (typeof METHODS)['1.0'], params: unknown, extra: Record<string, string> = {}) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method: this.method(op), params });
    const headers: Record<string, string> = {
      ...this.connection.headers,
      'content-type': 'application/json',
      ...(this.connection.version === '1.0' ? { 'a2a-version': '1.0' } : {}),
      ...extra,
    };
    return { body, headers };
  }

  private async call(op: keyof (typeof METHODS)['1.0'], params: unknown): Promise<unknown> {
    const { body, headers } = this.request(op, params, { accept: 'application/json' });
    const response = await this.fetch(body, headers);
    const text = await response.text();
    this.logResponse(response, text);
    return unwrap(parseJson(text, response.status));
  }

  private async stream(
    op: 'stream' | 'subscribe',
    params: unknown,
    onEvent: (e: StreamEvent) => void,
    signal?: AbortSignal,
    lastEventId?: string,
  ): Promise<void> {
    const extra: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId) extra['last-event-id'] = lastEventId;
    const { body, headers } = this.request(op, params, extra);
    const response = await this.fetch(body, headers, signal);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
      const text = await response.text();
      this.logResponse(response, text);
      unwrap(parseJson(text, response.status)); // throws the error it carries
      throw new CallError(`Expected an event stream, got ${response.headers.get('content-type') ?? 'no content type'}`);
    }
    this.logResponse(response, undefined);
    const v03 = this.connection.version === '0.3';
    let failure: CallError | undefined;
    const parser = createParser({
      onEvent: (event) => {
        this.log.add({ kind: 'sse', ...(event.id ? { id: event.id } : {}), body: event.data });
        try {
          const result = unwrap(parseJson(event.data, 200));
          onEvent({
            ...(event.id ? { seq: event.id } : {}),
            result: v03 ? fromV03Result(result) : (result as StreamResult),
          });
        } catch (error) {
          failure = error instanceof CallError ? error : new CallError(String(error));
        }
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || failure) break;
        parser.feed(value);
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    if (failure) throw failure;
  }

  private async fetch(body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const url = this.connection.endpoint;
    this.log.add({ kind: 'request', method: 'POST', url, headers, body });
    const direct = new URL(url, location.href).origin === location.origin;
    const init: RequestInit = {
      method: 'POST',
      body,
      headers: direct ? headers : { ...headers, 'x-playground-target': url, 'x-playground-method': 'POST' },
      ...(signal ? { signal } : {}),
    };
    try {
      const response = await fetch(direct ? url : this.proxyUrl, init);
      if (!direct && !response.headers.has('x-playground-proxied')) {
        // The playground's own refusal (SSRF guard, unreachable agent): its message is for the user.
        const text = await response.text();
        this.logResponse(response, text);
        const error = parseJson(text, response.status);
        throw new CallError(
          isObject(error) && typeof error.error === 'string' ? error.error : `Proxy answered ${response.status}`,
        );
      }
      return response;
    } catch (error) {
      if (error instanceof CallError) throw error;
      if ((error as Error).name === 'AbortError') throw error;
      this.log.add({ kind: 'error', url, body: String(error) });
      throw new CallError(`Could not reach ${url}: ${String(error)}`);
    }
  }

  private logResponse(response: Response, body: string | undefined): void {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    this.log.add({
      kind: 'response',
      status: response.status,
      url: this.connection.endpoint,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
  }
}

function parseJson(text: string, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CallError(`HTTP ${status}: the answer is not JSON`);
  }
}

/** The JSON-RPC result, or a {@link CallError} with the error's code, message and data. */
function unwrap(envelope: unknown): unknown {
  if (!isObject(envelope)) throw new CallError('The answer is not a JSON-RPC response');
  if (isObject(envelope.error)) {
    const e = envelope.error;
    throw new CallError(`${String(e.message ?? 'error')} (${String(e.code)})`, Number(e.code), e.data);
  }
  if (!('result' in envelope)) throw new CallError('The answer has neither result nor error');
  return envelope.result;
}
