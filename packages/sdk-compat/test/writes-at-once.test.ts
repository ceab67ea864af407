import { createRequestHandler, InMemoryTaskStore, type TaskStore } from '@a2a/core';
import { LaterStore } from '@a2a/store-testsuite';
import * as sdk from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutionEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { fromSdkExecutor } from '../src/index.js';
import { scribeCard } from './fixtures/sdk-agents.js';
import { chunk, status } from './sdk-events.js';

// With the in-memory store an SDK executor's events are written as it publishes them (the engine's `*Now` writes:
// no promise per helper call). What it publishes, in what order, and how the execution ends are the same as through
// a store whose writes land later, where every call goes through its promise and waits for the one before.

const { TaskState } = sdk;
const { supportedInterfaces: _fromTheMount, ...card } = scribeCard('http://agent.test');

type Execute = (ctx: RequestContext, bus: ExecutionEventBus, store: TaskStore) => Promise<void>;

async function run(execute: Execute, taskStore: TaskStore) {
  const executor: AgentExecutor = { execute: (ctx, bus) => execute(ctx, bus, taskStore), async cancelTask() {} };
  const handler = createRequestHandler({ agentCard: card, executor: fromSdkExecutor(executor), taskStore });
  const result = await handler.sendMessage(
    { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'go' }] } },
    {},
  );
  await handler.close?.({ timeoutMs: 100 });
  const task = 'task' in result ? result.task : undefined;
  return {
    state: task?.status.state,
    artifacts: task?.artifacts?.map((artifact) => artifact.parts.map((part) => part.text).join('')),
    metadata: task?.metadata,
  };
}

/** One more chunk of artifact `a`, appended. */
const appended = (ctx: RequestContext, text: string): AgentExecutionEvent => {
  const event = chunk(ctx, [text]) as { data: sdk.TaskArtifactUpdateEvent };
  return AgentEvent.artifactUpdate({ ...event.data, append: true });
};

/** A stream's events in one go: WORKING, a status with metadata (a call that never lands at once), chunks, the end. */
const publishAll: Execute = async (ctx, bus) => {
  bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
  bus.publish(
    AgentEvent.statusUpdate({
      taskId: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
      metadata: { step: 1 },
    }),
  );
  bus.publish(chunk(ctx, ['a']));
  for (const text of ['b', 'c']) bus.publish(appended(ctx, text));
  bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED));
};

describe('an SDK executor’s events written as published', () => {
  it('are in the in-memory store when `publish` returns', async () => {
    const seen: unknown[] = [];
    await run(async (ctx, bus, store) => {
      bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
      bus.publish(chunk(ctx, ['a']));
      // (Read here, synchronously after the two events: `get` reads the store when called.)
      const stored = store.get(ctx.taskId);
      bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED));
      const task = (await stored)?.task;
      seen.push(task?.status.state, task?.artifacts?.length);
    }, new InMemoryTaskStore());
    expect(seen).toEqual(['TASK_STATE_WORKING', 1]);
  });

  it('leave the same task, in the same order, as through a store that writes later', async () => {
    const atOnce = await run(publishAll, new InMemoryTaskStore());
    const later = await run(publishAll, new LaterStore());
    expect(atOnce).toEqual({ state: 'TASK_STATE_COMPLETED', artifacts: ['abc'], metadata: { step: 1 } });
    expect(later).toEqual(atOnce);
  });
});
