import { A2AClient, type AgentCard, isA2AError } from '@a2a/client';
import type { ListTasksResult, Message, StreamResult, Task } from './types.js';

// The page's calls to the agent. A2A 1.0 goes through @a2a/client (JSON-RPC binding, its SSE streams resume with
// Last-Event-ID); A2A 0.3 through the small v03-link.ts. Both get the page's wire fetch (logging, proxy routing).

export type ProtocolVersion = '1.0' | '0.3';

export interface StreamEvent {
  /** The SSE `id`: the event's sequence number in the task's log. */
  seq?: string;
  result: StreamResult;
}

export type OnEvent = (e: StreamEvent) => void;

export interface AgentLink {
  readonly version: ProtocolVersion;
  readonly supportsList: boolean;
  send(message: Message): Promise<StreamResult>;
  sendStreaming(message: Message, onEvent: OnEvent, signal?: AbortSignal): Promise<void>;
  subscribe(id: string, onEvent: OnEvent, lastEventId?: string, signal?: AbortSignal): Promise<void>;
  getTask(id: string): Promise<Task>;
  cancel(id: string): Promise<Task>;
  listTasks(filter: { contextId?: string; status?: string; pageSize?: number }): Promise<ListTasksResult>;
}

export interface LinkOptions {
  /** The agent's JSON-RPC interface URL, chosen from the card. */
  endpoint: string;
  /** Authorization and custom headers, on every call. */
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** Every SSE frame as received (the wire log). */
  onFrame: (id: string | undefined, data: string) => void;
}

/** An agent error with its code in the message, for the timeline. */
export function describeError(error: unknown): string {
  if (isA2AError(error)) return `${error.message} (${error.type}, ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** A2A 1.0 through @a2a/client, pinned to the interface the page chose. */
export class ClientLink implements AgentLink {
  readonly version = '1.0';
  readonly supportsList = true;
  private readonly client: A2AClient;

  constructor(card: unknown, options: LinkOptions) {
    const pinned = {
      ...(card as AgentCard),
      supportedInterfaces: [{ url: options.endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    } as AgentCard;
    this.client = new A2AClient(pinned, {
      bindings: ['JSONRPC'],
      fetch: options.fetch,
      headers: options.headers,
      onFrame: (frame) => options.onFrame(frame.id, frame.data),
    });
  }

  send(message: Message): Promise<StreamResult> {
    return this.client.sendMessage({ message } as never) as Promise<StreamResult>;
  }

  async sendStreaming(message: Message, onEvent: OnEvent, signal?: AbortSignal): Promise<void> {
    const stream = this.client.sendStreamingMessage({ message } as never, signal ? { signal } : {});
    for await (const event of stream) onEvent(withSeq(event as StreamResult, stream.lastEventId));
  }

  async subscribe(id: string, onEvent: OnEvent, lastEventId?: string, signal?: AbortSignal): Promise<void> {
    const stream = this.client.subscribeToTask(
      { id },
      { ...(lastEventId ? { lastEventId } : {}), ...(signal ? { signal } : {}) },
    );
    for await (const event of stream) onEvent(withSeq(event as StreamResult, stream.lastEventId));
  }

  getTask(id: string): Promise<Task> {
    return this.client.getTask({ id }) as Promise<Task>;
  }

  cancel(id: string): Promise<Task> {
    return this.client.cancelTask({ id }) as Promise<Task>;
  }

  listTasks(filter: { contextId?: string; status?: string; pageSize?: number }): Promise<ListTasksResult> {
    return this.client.listTasks(filter as never) as Promise<ListTasksResult>;
  }
}

const withSeq = (result: StreamResult, seq: string | undefined): StreamEvent => (seq ? { seq, result } : { result });
