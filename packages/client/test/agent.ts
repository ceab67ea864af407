import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import {
  type A2AHandlerOptions,
  type A2AHttpHandler,
  type AgentContext,
  type AgentExecutor,
  createA2AHandler,
  type StreamResponse,
} from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';

export const card = {
  name: 'Client test agent',
  description: 'Scripted replies for the client tests',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false },
  skills: [{ id: 'script', name: 'Script', description: 'Follows the message text', tags: ['test'] }],
};

export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
export function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Gates the scripted agent waits on: `gates.get(name)` resolves them. */
export class Gates {
  private readonly map = new Map<string, Deferred>();
  get(name: string): Deferred {
    const d = this.map.get(name) ?? deferred();
    this.map.set(name, d);
    return d;
  }
}

const textOf = (ctx: AgentContext) => {
  const part = ctx.message.parts[0] as { text?: string } | undefined;
  return part?.text ?? '';
};

/**
 * The message text is the script: `hello` → a direct reply message; `ask` → input-required (a reply completes it);
 * otherwise working, then (after the gate named by `gate:NAME`, if any) `chunks:N` artifact chunks (default 2), then
 * (after the gate `then:NAME`, if any) completed. Steps are separated by `;`.
 */
export function scriptedExecutor(gates: Gates): AgentExecutor {
  return {
    async execute(ctx) {
      const text = textOf(ctx);
      if (ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') return ctx.complete(`thanks for ${text}`);
      if (text === 'hello') return ctx.reply('hello to you');
      if (text === 'ask') return ctx.inputRequired('which one?');
      await ctx.working('on it');
      const wait = async (name: string | undefined) => {
        if (name) await Promise.race([gates.get(name).promise, aborted(ctx.signal)]);
        return !ctx.signal.aborted;
      };
      if (!(await wait(/gate:([^;]+)/.exec(text)?.[1]))) return;
      const n = Number(/chunks:(\d+)/.exec(text)?.[1] ?? 2);
      for (let i = 0; i < n; i++) {
        await ctx.artifact({ artifactId: 'out', text: `chunk ${i}`, append: i > 0, lastChunk: i === n - 1 });
      }
      if (!(await wait(/then:([^;]+)/.exec(text)?.[1]))) return;
      await ctx.complete('done');
    },
  };
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

export interface Agent {
  url: string;
  gates: Gates;
  /** Responses the server has finished or dropped, as `METHOD URL CONTENT-TYPE` (a released stream shows here). */
  closed: string[];
  /** Whether an event-stream response has ended (finished, or dropped by the client). */
  streamClosed(): boolean;
  /** The requests' headers, in order. */
  requests: IncomingMessage['headers'][];
  close(): Promise<void>;
}

/** Lets the test see each request and its response (node:http mounts: `true` means it answered the request itself). */
export type Recorder = (req: IncomingMessage, res: ServerResponse) => boolean | undefined;

/** Puts the handler on a server listening on 127.0.0.1:0 (node:http, or a framework through its adapter). */
export type Mount = (a2a: A2AHttpHandler, record: Recorder) => Promise<{ url: string; close: () => Promise<void> }>;

/** The `authorization: Bearer NAME` header as the caller. */
export const bearerCaller = (authorization: string | undefined) => {
  const auth = /^Bearer (.+)$/.exec(authorization ?? '');
  return auth?.[1] ? { user: { id: auth[1] } } : undefined;
};

/** Core's Node bridge on node:http. */
export const nodeMount: Mount = async (a2a, record) => {
  const listener = createNodeHandler(a2a, { context: (req) => bearerCaller(req.headers.authorization) });
  return listen((req, res) => {
    if (!record(req, res)) void listener(req, res);
  });
};

/** Our handler running the scripted agent, mounted by `mount` (default: node:http). */
export async function startAgent(extra: Partial<A2AHandlerOptions> = {}, mount: Mount = nodeMount): Promise<Agent> {
  const gates = new Gates();
  const a2a = createA2AHandler({
    agentCard: card,
    executor: scriptedExecutor(gates),
    onError: () => {},
    ...extra,
  } as A2AHandlerOptions);
  const closed: string[] = [];
  const requests: IncomingMessage['headers'][] = [];
  const server = await mount(a2a, (req, res) => {
    requests.push(req.headers);
    res.on('close', () => closed.push(`${req.method} ${req.url} ${res.getHeader('content-type')}`));
    return false;
  });
  const streamClosed = () => closed.some((c) => c.includes('text/event-stream'));
  return { ...server, gates, closed, requests, streamClosed };
}

/** A user message with one text part. */
export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER' as const,
  parts: [{ text }],
  ...extra,
});

/** One line per stream event (its kind and state, or an artifact chunk's text), for comparing event sequences. */
export const stateOf = (e: StreamResponse) =>
  'task' in e
    ? `task ${e.task.status.state}`
    : 'statusUpdate' in e
      ? `status ${e.statusUpdate.status.state}`
      : 'artifactUpdate' in e
        ? `artifact ${(e.artifactUpdate.artifact.parts[0] as { text: string }).text}`
        : 'message';
