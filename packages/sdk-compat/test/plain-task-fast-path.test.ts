import { createRequestHandler, InMemoryTaskStore, type StreamResponse } from '@a2a/core';
import * as sdk from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, type AgentExecutor, type RequestContext } from '@a2a-js/sdk/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventApplier } from '../src/event-applier.js';
import { fromSdkExecutor } from '../src/index.js';
import { scribeCard } from './fixtures/sdk-agents.js';

// A plain `Task` event (no metadata, no status message, plain text artifacts) goes from the SDK object straight into
// the applier (`applySdkEvent`'s fast path); any other goes through `fromSdkEvent` and `apply`. The same events with
// `metadata: {}` on each Task (which changes nothing: empty metadata is not merged) take the slow path: both must
// stream the same events, leave the same task and drop the same late events.

const { TaskState } = sdk;
const { supportedInterfaces: _fromTheMount, ...card } = scribeCard('http://agent.test');
type Ids = { taskId: string; contextId: string };

const text = (value: string): sdk.Part => ({
  content: { $case: 'text', value },
  mediaType: '',
  filename: '',
  metadata: undefined,
});
const artifact = (artifactId: string, value: string, name = ''): sdk.Artifact => ({
  artifactId,
  name,
  description: '',
  parts: [text(value)],
  metadata: undefined,
  extensions: [],
});
const task = (ids: Ids, state: sdk.TaskState, artifacts: sdk.Artifact[] = [], id = ids.taskId) =>
  AgentEvent.task({
    id,
    contextId: ids.contextId,
    status: { state, timestamp: undefined, message: undefined },
    artifacts,
    history: [],
    metadata: undefined,
  });
const status = (ids: Ids, state: sdk.TaskState) =>
  AgentEvent.statusUpdate({
    taskId: ids.taskId,
    contextId: ids.contextId,
    status: { state, timestamp: undefined, message: undefined },
    metadata: undefined,
  });
const chunk = (ids: Ids, a: sdk.Artifact) =>
  AgentEvent.artifactUpdate({
    taskId: ids.taskId,
    contextId: ids.contextId,
    artifact: a,
    append: false,
    lastChunk: false,
    metadata: undefined,
  });

const scripts: [string, (ids: Ids) => AgentExecutionEvent[]][] = [
  ['one COMPLETED task with its artifact', (ids) => [task(ids, TaskState.TASK_STATE_COMPLETED, [artifact('a', 'x')])]],
  [
    'a SUBMITTED task, then updates',
    (ids) => [
      task(ids, TaskState.TASK_STATE_SUBMITTED),
      status(ids, TaskState.TASK_STATE_WORKING),
      chunk(ids, artifact('a', 'x')),
      status(ids, TaskState.TASK_STATE_COMPLETED),
    ],
  ],
  [
    'a task naming one artifact id twice',
    (ids) => [task(ids, TaskState.TASK_STATE_COMPLETED, [artifact('a', 'x'), artifact('a', 'y', 'n')])],
  ],
  [
    'a restated task: only the artifacts not seen are added',
    (ids) => [
      chunk(ids, artifact('a', 'x')),
      task(ids, TaskState.TASK_STATE_WORKING, [artifact('a', 'x'), artifact('b', 'y'), artifact('a', 'z')]),
      task(ids, TaskState.TASK_STATE_COMPLETED, [artifact('a', 'x'), artifact('b', 'y'), artifact('c', 'w')]),
    ],
  ],
  [
    'a task without ids, then a restated SUBMITTED one',
    (ids) => [
      task({ taskId: '', contextId: '' }, TaskState.TASK_STATE_WORKING),
      task(ids, TaskState.TASK_STATE_SUBMITTED),
      task(ids, TaskState.TASK_STATE_COMPLETED),
    ],
  ],
  ['a task of another task id', (ids) => [task(ids, TaskState.TASK_STATE_WORKING, [], 'someone-else')]],
  [
    'tasks after the final state',
    (ids) => [
      task(ids, TaskState.TASK_STATE_COMPLETED),
      task(ids, TaskState.TASK_STATE_WORKING, [artifact('a', 'x')]),
      task(ids, TaskState.TASK_STATE_FAILED),
    ],
  ],
];

class ScriptedExecutor implements AgentExecutor {
  constructor(
    private readonly script: (ids: Ids) => AgentExecutionEvent[],
    private readonly slow: boolean,
  ) {}

  async execute(ctx: RequestContext, bus: { publish(event: AgentExecutionEvent): void }): Promise<void> {
    for (const event of this.script({ taskId: ctx.taskId, contextId: ctx.contextId })) {
      if (this.slow && event.kind === 'task') (event.data as sdk.Task).metadata = {};
      bus.publish(event);
    }
  }

  async cancelTask(): Promise<void> {}
}

/** The stream and the stored task, ids, timestamps and message ids replaced. */
async function run(script: (ids: Ids) => AgentExecutionEvent[], slow: boolean) {
  const ignored: string[] = [];
  const handler = createRequestHandler({
    agentCard: card,
    executor: fromSdkExecutor(new ScriptedExecutor(script, slow), {
      onIgnoredEvent: (reason) => ignored.push(reason),
    }),
    taskStore: new InMemoryTaskStore(),
  });
  const events: StreamResponse[] = [];
  const request = { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text: 'go' }] } };
  for await (const event of handler.sendStreamingMessage(request, {})) events.push(event);
  const first = events[0] as { task?: { id: string; contextId: string } };
  const ids = { taskId: first.task?.id ?? '', contextId: first.task?.contextId ?? '' };
  const stored = ids.taskId ? await handler.getTask({ id: ids.taskId }, {}) : undefined;
  const normalized = JSON.parse(
    JSON.stringify({ events, stored, ignored }, (key, value) => {
      if (key === 'timestamp' || key === 'messageId') return '<stamp>';
      if (typeof value !== 'string' || !ids.taskId) return value;
      return value.replaceAll(ids.taskId, '<task>').replaceAll(ids.contextId, '<context>');
    }),
  );
  await handler.close?.({ timeoutMs: 100 });
  return normalized;
}

describe('a plain Task event through the fast path', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(scripts)('%s: the same events, task and dropped events as through the slow path', async (_, script) => {
    const plain = vi.spyOn(EventApplier.prototype, 'applyPlainTask');
    const fast = await run(script, false);
    const fastCalls = plain.mock.calls.length;
    plain.mockClear();
    const slow = await run(script, true);
    // Each path is the one it should be: every Task event the fast one, none the slow one.
    expect([fastCalls, plain.mock.calls.length]).toEqual([
      script({ taskId: 't', contextId: 'c' }).filter((event) => event.kind === 'task').length,
      0,
    ]);
    expect(fast).toEqual(slow);
  });
});
