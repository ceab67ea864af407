import { createRequestHandler, InMemoryTaskStore, type TaskStore } from '@a2a/core';
import { LaterStore } from '@a2a/store-testsuite';
import * as sdk from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { fromSdkExecutor } from '../src/index.js';
import { scribeCard } from './fixtures/sdk-agents.js';
import { chunk, status } from './sdk-events.js';

// How an SDK execution ends: when the executor's `execute` returns with every helper call its events caused already
// settled, it ends at once (no drain); else when they have. Either way the first failed helper call fails the task, the
// bus's 'finished' listeners run once, and an executor that returns nothing or throws synchronously is handled as an
// async one that resolves or rejects. With the in-memory store the engine's writes land as the events are published;
// with a store that writes later every helper call is in flight a while, and those after it wait: each case runs on
// both.

const { TaskState } = sdk;
const { supportedInterfaces: _fromTheMount, ...card } = scribeCard('http://agent.test');

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

type Execute = (ctx: RequestContext, bus: ExecutionEventBus) => Promise<void> | void;

async function run(execute: Execute, taskStore: TaskStore) {
  let finished = 0;
  const executor: AgentExecutor = {
    execute(ctx, bus) {
      bus.on('finished', () => finished++);
      return execute(ctx, bus) as Promise<void>; // (a plain function's `undefined` as well)
    },
    async cancelTask() {},
  };
  const handler = createRequestHandler({
    agentCard: card,
    executor: fromSdkExecutor(executor),
    taskStore,
    onError: () => {},
  });
  const result = await handler.sendMessage(
    { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'go' }] } },
    {},
  );
  const task = 'task' in result ? result.task : undefined;
  // (The turn may end before `execute`'s promise settles: wait for the execution itself.)
  await later();
  await handler.close?.({ timeoutMs: 100 });
  return {
    task,
    state: task?.status.state,
    said: task?.status.message?.parts.map((part) => part.text).join('') ?? '',
    artifacts: task?.artifacts?.length ?? 0,
    finished,
  };
}

const stores: [string, () => TaskStore][] = [
  ['the in-memory store', () => new InMemoryTaskStore()],
  ['a store that writes later', () => new LaterStore()],
];

describe.each(stores)('an SDK execution ends, with %s', (_, store) => {
  it.each([
    ['settled before execute returns', true],
    ['still in flight when execute returns', false],
  ])('with its helper calls %s: the events applied, finished once', async (_, wait) => {
    const ended = await run(async (ctx, bus) => {
      bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
      bus.publish(chunk(ctx, ['x']));
      if (wait) await later();
      bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED));
      if (wait) await later();
    }, store());
    expect(ended).toMatchObject({ state: 'TASK_STATE_COMPLETED', said: '', artifacts: 1, finished: 1 });
  });

  it.each([
    ['settled before execute returns', true],
    ['still in flight when execute returns', false],
  ])('with a failed helper call %s: the task FAILED saying why, finished once', async (_, wait) => {
    const ended = await run(async (ctx, bus) => {
      bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
      bus.publish(chunk(ctx, []));
      if (wait) await later();
    }, store());
    expect(ended).toMatchObject({
      state: 'TASK_STATE_FAILED',
      said: 'Agent failed: An artifact needs parts',
      artifacts: 0,
      finished: 1,
    });
  });

  it('from an executor that is not async and returns nothing', async () => {
    const ended = await run((ctx, bus) => {
      bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED));
    }, store());
    expect(ended).toMatchObject({ state: 'TASK_STATE_COMPLETED', said: '', artifacts: 0, finished: 1 });
  });

  it('from an executor that throws synchronously: FAILED with its message, finished once', async () => {
    const ended = await run((ctx, bus) => {
      bus.publish(status(ctx, TaskState.TASK_STATE_WORKING));
      throw new Error('no model');
    }, store());
    expect(ended).toMatchObject({
      state: 'TASK_STATE_FAILED',
      said: 'Agent failed: no model',
      artifacts: 0,
      finished: 1,
    });
  });
});

describe.each(stores)(
  'helper calls waiting for the one before (an executor publishes in one go), with %s',
  (_, store) => {
    it('keep their arguments, whatever their width in the queue', async () => {
      const { task, finished } = await run(async (ctx, bus) => {
        bus.publish(chunk(ctx, ['a'])); // made at once; everything after it waits
        bus.publish(
          AgentEvent.task({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
            artifacts: [],
            history: [],
            metadata: undefined,
          }),
        ); // a submit: the operation alone
        bus.publish(
          AgentEvent.statusUpdate({
            taskId: ctx.taskId,
            contextId: ctx.contextId,
            status: {
              state: TaskState.TASK_STATE_WORKING,
              timestamp: undefined,
              message: {
                messageId: 'm',
                contextId: ctx.contextId,
                taskId: ctx.taskId,
                role: sdk.Role.ROLE_AGENT,
                parts: [
                  { content: { $case: 'text', value: 'thinking' }, metadata: undefined, filename: '', mediaType: '' },
                ],
                metadata: undefined,
                extensions: [],
                referenceTaskIds: [],
              },
            },
            metadata: { step: 2 },
          }),
        ); // a status with a message and options: four slots
        bus.publish(chunk(ctx, ['b'])); // an artifact: two
        bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED)); // a bare status: two
      }, store());
      expect(finished).toBe(1);
      expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task?.artifacts?.map((artifact) => artifact.parts.map((part) => part.text).join())).toEqual(['b']);
      expect(task?.metadata).toEqual({ step: 2 });
      expect(
        task?.history?.filter((message) => message.role === 'ROLE_AGENT').map((message) => message.parts[0]?.text),
      ).toEqual(['thinking']);
    });
  },
);
