// A custom TaskStore without the push methods needs no pushConfigStore when the card does not declare push: push
// operations answer PushNotificationNotSupported (-32003 / 400). With push declared, setup still says what is missing.
import { describe, expect, it } from 'vitest';
import { type AgentCardInput, createA2AHandler, InMemoryTaskStore, type TaskStore } from '../src/index.js';
import { userMessage } from './helpers.js';

const card: AgentCardInput = {
  name: 'No push',
  description: 'A task store without push configs',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['echo'] }],
};

/** A store with the TaskStore methods only, as an app writes one over its own database. */
function taskOnlyStore(): TaskStore {
  const memory = new InMemoryTaskStore();
  return {
    create: (task, owner) => memory.create(task, owner),
    get: (taskId, owner) => memory.get(taskId, owner),
    append: (taskId, version, event) => memory.append(taskId, version, event),
    list: (owner, query) => memory.list(owner, query),
    readEvents: (taskId, afterSeq) => memory.readEvents(taskId, afterSeq),
    subscribe: (taskId, afterSeq, signal) => memory.subscribe(taskId, afterSeq, signal),
  };
}

const executor = { execute: (ctx: { complete(text: string): Promise<void> }) => ctx.complete('done') };
const url = 'https://hooks.example.com/a2a';

describe('a task store without push configs', () => {
  it('is enough when the card does not declare push; push calls are refused as not supported', async () => {
    const a2a = createA2AHandler({ agentCard: card, executor, taskStore: taskOnlyStore(), onError: () => {} });
    const post = (path: string, body: unknown) =>
      a2a.fetch(
        new Request(`http://agent.test${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const rpc = async (method: string, params: unknown) =>
      (await (await post('/', { jsonrpc: '2.0', id: 1, method, params })).json()) as {
        result?: { task?: { id: string; status: { state: string } } };
        error?: { code: number };
      };
    const sent = await rpc('SendMessage', { message: userMessage('hi') });
    expect(sent.result?.task?.status.state).toBe('TASK_STATE_COMPLETED');
    const taskId = sent.result?.task?.id as string;
    for (const [method, params] of [
      ['CreateTaskPushNotificationConfig', { taskId, url }],
      ['GetTaskPushNotificationConfig', { taskId, id: 'p' }],
      ['ListTaskPushNotificationConfigs', { taskId }],
      ['DeleteTaskPushNotificationConfig', { taskId, id: 'p' }],
      ['SendMessage', { message: userMessage('again'), configuration: { taskPushNotificationConfig: { url } } }],
    ] as const) {
      expect((await rpc(method, params)).error?.code, method).toBe(-32003);
    }
    const rest = await post(`/tasks/${taskId}/pushNotificationConfigs`, { url });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ error: { details: [{ reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' }] } });
  });

  it('is a setup error when the card declares push', () => {
    expect(() =>
      createA2AHandler({
        agentCard: { ...card, capabilities: { pushNotifications: true } },
        executor,
        taskStore: taskOnlyStore(),
        onWarning: () => {},
      }),
    ).toThrow(/pushConfigStore is required when the card declares capabilities\.pushNotifications/);
  });
});
