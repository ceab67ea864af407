import { createServer, type Server } from 'node:http';
import { createA2AHandler, type Task } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import { TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutionEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromSdkExecutor } from '../src/index.js';
import { fromSdkV03Executor } from '../src/v03/index.js';
import type { SdkV03EventBus, SdkV03RequestContext } from '../src/v03/sdk-v03-types.js';
import { close, listen } from './helpers.js';
import { chunk, status } from './sdk-events.js';

// Executors that break the bus's rules. Each must end its task with a clear message (or be contained), never crash
// the process, hang the caller or keep running state.

type Misbehaviour = (ctx: RequestContext, bus: ExecutionEventBus) => Promise<void>;

const MISBEHAVIOURS: Record<string, Misbehaviour> = {
  'other-task': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
    bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED, 'someone-else'));
  },
  'chunk-other-task': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
    bus.publish(chunk(ctx, ['x'], 'someone-else'));
  },
  'chunk-without-parts': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
    bus.publish(chunk(ctx, []));
    bus.publish(chunk(ctx, ['after']));
  },
  'after-final': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED));
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
    bus.finished();
  },
  'unknown-kind': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
    bus.publish({ kind: 'telepathy', data: {} } as unknown as AgentExecutionEvent);
  },
  'no-data': async (_ctx, bus) => {
    bus.publish({ kind: 'statusUpdate', data: 42 } as unknown as AgentExecutionEvent);
  },
  'not-an-event': async (_ctx, bus) => {
    bus.publish(null as unknown as AgentExecutionEvent);
  },
  'empty-message': async (ctx, bus) => {
    bus.publish(
      AgentEvent.message({
        messageId: 'm',
        contextId: ctx.contextId,
        taskId: '',
        role: 2,
        parts: [],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      }),
    );
  },
  'throw-mid-stream': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
    throw new Error('the model went away');
  },
  'type-error': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
    (undefined as unknown as { x: () => void }).x();
  },
  'never-finished': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
  },
  'never-returns': async (ctx, bus) => {
    bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED));
    await new Promise(() => {});
  },
};

class Misbehaving implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const part = ctx.userMessage.parts[0]?.content;
    const name = part?.$case === 'text' ? part.value : '';
    await MISBEHAVIOURS[name]?.(ctx, bus);
  }
  async cancelTask(): Promise<void> {}
}

/** The 0.3.x generation's rule breakers (kind-tagged v0.3 objects). */
class MisbehavingV03 {
  async execute(ctx: SdkV03RequestContext, bus: SdkV03EventBus): Promise<void> {
    const first = ctx.userMessage.parts[0];
    const name = first?.kind === 'text' ? first.text : '';
    const update = (state: string, taskId = ctx.taskId) =>
      ({ kind: 'status-update', taskId, contextId: ctx.contextId, status: { state }, final: false }) as never;
    if (name === 'v03-unknown-kind') bus.publish({ kind: 'vibes' } as never);
    if (name === 'v03-other-task') bus.publish(update('completed', 'someone-else'));
    if (name === 'v03-bad-state') bus.publish(update('exploded'));
  }
  async cancelTask(): Promise<void> {}
}

const card = {
  name: 'Misbehaving',
  description: 'Breaks the rules',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'x', name: 'x', description: 'x', tags: ['x'] }],
};

describe('a hostile SDK executor', () => {
  let server: Server;
  let origin: string;
  const ignored: string[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    const onIgnoredEvent = (reason: string) => void ignored.push(reason);
    const v1 = createA2AHandler({
      agentCard: card,
      executor: fromSdkExecutor(new Misbehaving(), { onIgnoredEvent }),
      onError: (e) => void errors.push(e),
    });
    const v03 = createA2AHandler({
      agentCard: card,
      executor: fromSdkV03Executor(new MisbehavingV03()),
      onError: (e) => void errors.push(e),
    });
    const app = express();
    app.use('/v1', a2aExpress(v1));
    app.use('/v03', a2aExpress(v03));
    server = createServer(app);
    origin = await listen(server);
  });
  afterAll(() => close(server));

  async function send(text: string, path = '/v1', method = 'SendMessage'): Promise<Task> {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
      }),
      signal: AbortSignal.timeout(15_000),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result?: { task?: Task }; error?: unknown };
    if (!body.result?.task) throw new Error(`no task: ${JSON.stringify(body)}`);
    return body.result.task;
  }

  const said = (task: Task) => task.status.message?.parts.map((p) => p.text).join('') ?? '';

  it.each([
    ['other-task', /event for task someone-else while working on task/],
    ['chunk-other-task', /event for task someone-else while working on task/],
    ['chunk-without-parts', /^Agent failed: An artifact needs parts$/],
    ['unknown-kind', /unreadable event: unknown event kind 'telepathy'/],
    ['no-data', /unreadable event: an event of kind 'statusUpdate' has no data/],
    ['not-an-event', /unreadable event/],
    ['empty-message', /message without parts/],
    ['throw-mid-stream', /^Agent failed: the model went away$/],
    ['type-error', /^Agent failed: internal error$/],
    ['v03-unknown-kind', /unreadable event: .*vibes/],
    ['v03-other-task', /event for task someone-else/],
    ['v03-bad-state', /unreadable event/],
  ])('%s: the task ends FAILED saying why', async (name, why) => {
    const task = await send(name, name.startsWith('v03') ? '/v03' : '/v1');
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(said(task)).toMatch(why);
  });

  it('events after the final state are dropped and reported; the task stays COMPLETED', async () => {
    const task = await send('after-final');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(ignored).toContain('an event after the task finished was dropped (status)');
  });

  it('an executor that returns without finishing the bus ends its turn; one that never returns still answers', async () => {
    expect((await send('never-finished')).status.state).toBe('TASK_STATE_WORKING');
    expect((await send('never-returns')).status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a stream that fails mid-way ends with the FAILED status and closes', async () => {
    const response = await fetch(`${origin}/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'SendStreamingMessage',
        params: {
          message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'throw-mid-stream' }] },
        },
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const states = [...text.matchAll(/"state":"(TASK_STATE_\w+)"/g)].map((m) => m[1]);
    expect(states.at(-1)).toBe('TASK_STATE_FAILED');
    expect(text).toContain('Agent failed: the model went away');
  });
});
