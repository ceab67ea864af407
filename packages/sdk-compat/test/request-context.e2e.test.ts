// The SDK request context fromSdkExecutor builds by hand (no constructor, a shared `context` getter) and the running
// execution it keeps on our context for a cancel: both are performance shortcuts (docs/performance.md, "SDK
// executors through @a2a/sdk-compat"); these tests pin what an SDK executor can observe of them.
import { createServer, type Server } from 'node:http';
import { createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, type ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromSdkExecutor, sdkContext } from '../src/index.js';
import { close, listen } from './helpers.js';

const completed = (ctx: RequestContext) =>
  AgentEvent.statusUpdate({
    taskId: ctx.taskId,
    contextId: ctx.contextId,
    status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: undefined, message: undefined },
    metadata: undefined,
  });

const textOf = (ctx: RequestContext) => {
  const content = ctx.userMessage.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
};

const isCanceled = (event: AgentExecutionEvent) =>
  event.kind === 'statusUpdate' && event.data.status?.state === TaskState.TASK_STATE_CANCELED;

/** Keeps the request contexts it gets; `wait` tasks run until a CANCELED status shows on their own bus. */
class Inspector {
  readonly contexts: RequestContext[] = [];
  readonly sawCancelOnOwnBus = new Set<string>();

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    this.contexts.push(ctx);
    if (textOf(ctx) === 'restate') return restate(ctx, bus);
    if (textOf(ctx) === 'wait') {
      await new Promise<void>((resolve) => {
        bus.on('event', (event) => {
          if (!isCanceled(event)) return;
          this.sawCancelOnOwnBus.add(ctx.taskId);
          resolve();
        });
      });
      return;
    }
    bus.publish(completed(ctx));
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, timestamp: undefined, message: undefined },
        metadata: undefined,
      }),
    );
  }
}

const artifact = (artifactId: string, value: string) => ({
  artifactId,
  name: artifactId,
  description: '',
  parts: [{ content: { $case: 'text' as const, value }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
});

/** Artifacts `a` and `b` as updates, then the whole task restating them beside a new `c`. */
async function restate(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
  const { taskId, contextId } = ctx;
  for (const id of ['a', 'b']) {
    const update = { taskId, contextId, append: false, lastChunk: true, metadata: undefined };
    bus.publish(AgentEvent.artifactUpdate({ ...update, artifact: artifact(id, `${id} as updated`) }));
  }
  bus.publish(
    AgentEvent.task({
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: undefined, message: undefined },
      artifacts: ['a', 'b', 'c'].map((id) => artifact(id, `${id} as restated`)),
      history: [],
      metadata: undefined,
    }),
  );
}

const card = {
  name: 'Inspector',
  description: 'Keeps what it gets',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'i', name: 'i', description: 'i', tags: ['i'] }],
};

const rpc = (method: string, params: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  signal: AbortSignal.timeout(15_000),
});

const message = (text: string) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] });

interface Answer {
  result?: { task: { id: string; status: { state: string } } };
  error?: unknown;
}

describe('fromSdkExecutor: the request context and the running execution', () => {
  const inspector = new Inspector();
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    const a2a = createA2AHandler({ agentCard: card, executor: fromSdkExecutor(inspector) });
    const context = sdkContext<{ headers: Record<string, unknown> }>();
    server = createServer(createNodeHandler(a2a, { context }));
    origin = await listen(server);
  });
  afterAll(() => close(server));

  it("has the SDK RequestContext's own fields, and each request its own call context", async () => {
    const sent = await Promise.all(
      ['one', 'two'].map(async (note) => {
        const response = await fetch(origin, rpc('SendMessage', { message: message(note) }, { 'x-note': note }));
        return ((await response.json()) as Answer).result?.task.status.state;
      }),
    );
    expect(sent).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);
    const [one, two] = ['one', 'two'].map((note) => {
      const found = inspector.contexts.find((ctx) => textOf(ctx) === note);
      if (!found) throw new Error(`the executor did not run for '${note}'`);
      return found;
    }) as [RequestContext, RequestContext];
    for (const ctx of [one, two]) {
      expect(ctx).toBeInstanceOf(RequestContext);
      const made = new RequestContext(
        ctx.request,
        ctx.taskId,
        ctx.contextId,
        ctx.context,
        ctx.task,
        ctx.referenceTasks,
      );
      expect(Object.keys(ctx).sort()).toEqual(Object.keys(made).sort());
      expect(Object.getOwnPropertyDescriptor(ctx, 'context')?.enumerable).toBe(true);
      expect(ctx.context).toBe(ctx.context); // made once, on first read
    }
    expect(one.context).not.toBe(two.context);
    expect((one.context.state.get('headers') as Record<string, string>)['x-note']).toBe('one');
    expect((two.context.state.get('headers') as Record<string, string>)['x-note']).toBe('two');
  });

  it('a Task event restating artifacts adds only the ones not seen yet', async () => {
    const sent = (await (await fetch(origin, rpc('SendMessage', { message: message('restate') }))).json()) as {
      result?: { task: { artifacts: { artifactId: string; parts: { text: string }[] }[] } };
    };
    const artifacts = sent.result?.task.artifacts.map((a) => [a.artifactId, a.parts.map((p) => p.text).join()]);
    expect(artifacts).toEqual([
      ['a', 'a as updated'],
      ['b', 'b as updated'],
      ['c', 'c as restated'],
    ]);
  });

  it("CancelTask hands the executor's cancelTask the bus of the running execution", async () => {
    const sent = (await (
      await fetch(origin, rpc('SendMessage', { message: message('wait'), configuration: { returnImmediately: true } }))
    ).json()) as Answer;
    const id = sent.result?.task.id ?? '';
    const canceled = (await (await fetch(origin, rpc('CancelTask', { id }))).json()) as {
      result?: { status: { state: string } };
    };
    expect(canceled.result?.status.state).toBe('TASK_STATE_CANCELED');
    // The running execute() saw the CANCELED status on its own bus: cancelTask got that bus, not a new one.
    expect(inspector.sawCancelOnOwnBus.has(id)).toBe(true);
  });
});
