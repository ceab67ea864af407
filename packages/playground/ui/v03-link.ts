import { createParser } from 'eventsource-parser';
import type { AgentLink, LinkOptions, OnEvent } from './link.js';
import type { ListTasksResult, Message, StreamResult, Task } from './types.js';
import { fromV03Result, fromV03Task, toV03Message } from './v03.js';

// A2A 0.3 over JSON-RPC: the old method names and `kind`-tagged shapes, translated to the v1.0 shapes the page uses
// (v03.ts). Not merged into ClientLink (link.ts, @a2a/client): the client speaks 0.3 only through `@a2a/client/v03`,
// which reads with core's zod-validated translators (the page would grow from 47 kB to 517 kB, see v03.ts), and its
// JSON-RPC wire takes a v0.3 dialect only from inside the package (JsonRpcWire is not exported). The SSE parsing is
// the same eventsource-parser the client uses, bundled once.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class V03Link implements AgentLink {
  readonly version = '0.3';
  readonly supportsList = false;
  private nextId = 1;

  constructor(private readonly options: LinkOptions) {}

  async send(message: Message): Promise<StreamResult> {
    return fromV03Result(await this.call('message/send', { message: toV03Message(message) }));
  }

  sendStreaming(message: Message, onEvent: OnEvent, signal?: AbortSignal): Promise<void> {
    return this.stream('message/stream', { message: toV03Message(message) }, onEvent, signal);
  }

  subscribe(id: string, onEvent: OnEvent, lastEventId?: string, signal?: AbortSignal): Promise<void> {
    return this.stream('tasks/resubscribe', { id }, onEvent, signal, lastEventId);
  }

  async getTask(id: string): Promise<Task> {
    return fromV03Task(await this.call('tasks/get', { id }));
  }

  async cancel(id: string): Promise<Task> {
    return fromV03Task(await this.call('tasks/cancel', { id }));
  }

  async listTasks(): Promise<ListTasksResult> {
    throw new Error('ListTasks is not part of A2A 0.3');
  }

  private post(method: string, params: unknown, extra: Record<string, string>, signal?: AbortSignal) {
    return this.options.fetch(this.options.endpoint, {
      method: 'POST',
      headers: { ...this.options.headers, 'content-type': 'application/json', ...extra },
      body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
      ...(signal ? { signal } : {}),
    });
  }

  private async call(method: string, params: unknown): Promise<unknown> {
    const response = await this.post(method, params, { accept: 'application/json' });
    return unwrap(await response.text(), response.status);
  }

  private async stream(
    method: string,
    params: unknown,
    onEvent: OnEvent,
    signal?: AbortSignal,
    lastEventId?: string,
  ): Promise<void> {
    const extra: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId) extra['last-event-id'] = lastEventId;
    const response = await this.post(method, params, extra, signal);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
      unwrap(await response.text(), response.status); // throws the error it carries
      throw new Error('The agent did not answer with an event stream');
    }
    let failure: unknown;
    const parser = createParser({
      onEvent: (event) => {
        this.options.onFrame(event.id, event.data);
        try {
          const result = fromV03Result(unwrap(event.data, 200));
          onEvent(event.id ? { seq: event.id, result } : { result });
        } catch (error) {
          failure = error;
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
}

/** The JSON-RPC result, or an error with the agent's message and code. */
function unwrap(text: string, status: number): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${status}: the answer is not JSON`);
  }
  if (!isObject(envelope)) throw new Error('The answer is not a JSON-RPC response');
  if (isObject(envelope.error)) {
    throw new Error(`${String(envelope.error.message ?? 'error')} (${String(envelope.error.code)})`);
  }
  if (!('result' in envelope)) throw new Error('The answer has neither result nor error');
  return envelope.result;
}
