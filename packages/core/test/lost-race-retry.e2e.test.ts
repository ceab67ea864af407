import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentContext,
  InMemoryTaskStore,
  type TaskEvent,
  type TaskEventRecord,
  type TaskState,
} from '../src/index.js';
import { card, eventually, startServer, type TestServer, userMessage } from './helpers.js';

/** A store where the next append matching `race.when` loses a real version race: `race.competing` lands first. */
class RacingStore extends InMemoryTaskStore {
  race: { when: (event: TaskEvent) => boolean; competing: TaskEvent } | undefined;
  lost = 0;
  override async append(taskId: string, expectedVersion: number, event: TaskEvent): Promise<TaskEventRecord> {
    const race = this.race;
    if (race?.when(event)) {
      this.race = undefined;
      await super.append(taskId, expectedVersion, race.competing);
      this.lost++;
    }
    return super.append(taskId, expectedVersion, event);
  }
}

const status = (state: TaskState): TaskEvent => ({
  kind: 'status',
  status: { state, timestamp: new Date().toISOString() },
});
const isStatus = (state: TaskState) => (event: TaskEvent) => event.kind === 'status' && event.status.state === state;
const text = (ctx: AgentContext) => ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');

/** `wait`: INPUT_REQUIRED; `hang`: WORKING until aborted; anything else completes the task. */
async function execute(ctx: AgentContext): Promise<void> {
  if (text(ctx) === 'wait') return ctx.inputRequired('more?');
  if (text(ctx) !== 'hang') return ctx.complete('done');
  await ctx.working();
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
}

describe('a client write that loses a version race is retried on the new version', () => {
  let store: RacingStore;
  let server: TestServer;
  const start = async () => {
    store = new RacingStore();
    const agentCard = { ...card, capabilities: { streaming: true } };
    server = await startServer({ agentCard, taskStore: store, executor: { execute } });
  };
  afterEach(() => server.close());
  const waiting = async () => (await server.rpc('SendMessage', { message: userMessage('wait') })).body.result.task;

  it.each([
    ['the agent resumed (WORKING)', 'TASK_STATE_WORKING', { status: { state: 'TASK_STATE_CANCELED' } }],
    ['another cancel won', 'TASK_STATE_CANCELED', { status: { state: 'TASK_STATE_CANCELED' } }],
  ] as const)('CancelTask after %s: CANCELED', async (_name, competing, expected) => {
    await start();
    const task = await waiting();
    store.race = { when: isStatus('TASK_STATE_CANCELED'), competing: status(competing) };
    const canceled = await server.rpc('CancelTask', { id: task.id });
    expect(store.lost).toBe(1);
    expect(canceled.body.result).toMatchObject(expected);
  });

  it('CancelTask after the task completed meanwhile: TaskNotCancelable', async () => {
    await start();
    const task = await waiting();
    store.race = { when: isStatus('TASK_STATE_CANCELED'), competing: status('TASK_STATE_COMPLETED') };
    const canceled = await server.rpc('CancelTask', { id: task.id });
    expect(store.lost).toBe(1);
    expect(canceled.body.error).toMatchObject({
      code: -32002,
      message: expect.stringMatching(/is TASK_STATE_COMPLETED/),
    });
  });

  it("a follow-up message lands after another client's message", async () => {
    await start();
    const task = await waiting();
    const other = { ...userMessage('other'), role: 'ROLE_USER' as const, taskId: task.id, contextId: task.contextId };
    store.race = { when: (event) => event.kind === 'history', competing: { kind: 'history', message: other } };
    const sent = await server.rpc('SendMessage', { message: { ...userMessage('go on'), taskId: task.id } });
    expect(store.lost).toBe(1);
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const history = (await server.rpc('GetTask', { id: task.id })).body.result.history;
    expect(history.map((m: { parts: { text: string }[] }) => m.parts[0]?.text)).toEqual([
      'wait',
      'more?',
      'other',
      'go on',
      'done',
    ]);
  });

  it('shutdown fails a still-running task even when an agent write lands first', async () => {
    await start();
    const sent = await server.rpc('SendMessage', {
      message: userMessage('hang'),
      configuration: { returnImmediately: true },
    });
    const id = sent.body.result.task.id as string;
    await eventually(async () => (await store.get(id))?.task.status.state === 'TASK_STATE_WORKING');
    const artifact = { artifactId: 'late', parts: [{ text: 'late' }] };
    store.race = { when: isStatus('TASK_STATE_FAILED'), competing: { kind: 'artifact', artifact } };
    await server.a2a.close({ timeoutMs: 10 });
    expect(store.lost).toBe(1);
    const task = (await store.get(id))?.task;
    expect(task?.status.state).toBe('TASK_STATE_FAILED');
    expect(task?.status.message?.parts[0]).toMatchObject({ text: expect.stringMatching(/shut down/) });
    expect(task?.artifacts?.[0]?.artifactId).toBe('late');
  });
});
