import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../http/create-handler.js';
import { MAX_ID_LENGTH } from './id.js';
import {
  CancelTaskRequestSchema,
  CreateTaskPushNotificationConfigRequestSchema,
  GetTaskPushNotificationConfigRequestSchema,
  GetTaskRequestSchema,
  ListTaskPushNotificationConfigsRequestSchema,
  ListTasksRequestSchema,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
} from './requests.js';
import { simpleSendMessage } from './simple-send-message.js';

const longest = 'i'.repeat(MAX_ID_LENGTH);
const over = 'i'.repeat(MAX_ID_LENGTH + 1);
const message = (extra: Record<string, unknown> = {}) => ({
  messageId: 'm',
  role: 'ROLE_USER',
  parts: [{ text: 'hi' }],
  ...extra,
});
const url = 'https://example.com/hook';

describe('ids are bounded in every request schema', () => {
  const cases: [string, (id: string) => { success: boolean }][] = [
    ['message.messageId', (id) => SendMessageRequestSchema.safeParse({ message: message({ messageId: id }) })],
    ['message.contextId', (id) => SendMessageRequestSchema.safeParse({ message: message({ contextId: id }) })],
    ['message.taskId', (id) => SendMessageRequestSchema.safeParse({ message: message({ taskId: id }) })],
    [
      'message.referenceTaskIds[]',
      (id) => SendMessageRequestSchema.safeParse({ message: message({ referenceTaskIds: [id] }) }),
    ],
    ['tenant', (id) => SendMessageRequestSchema.safeParse({ tenant: id, message: message() })],
    [
      'configuration.taskPushNotificationConfig.id',
      (id) =>
        SendMessageRequestSchema.safeParse({
          message: message(),
          configuration: { taskPushNotificationConfig: { id, url } },
        }),
    ],
    ['GetTask id', (id) => GetTaskRequestSchema.safeParse({ id })],
    ['CancelTask id', (id) => CancelTaskRequestSchema.safeParse({ id })],
    ['SubscribeToTask id', (id) => SubscribeToTaskRequestSchema.safeParse({ id })],
    ['ListTasks contextId', (id) => ListTasksRequestSchema.safeParse({ contextId: id })],
    ['push config taskId', (id) => CreateTaskPushNotificationConfigRequestSchema.safeParse({ taskId: id, url })],
    ['push config id', (id) => CreateTaskPushNotificationConfigRequestSchema.safeParse({ taskId: 't', id, url })],
    [
      'GetTaskPushNotificationConfig id',
      (id) => GetTaskPushNotificationConfigRequestSchema.safeParse({ taskId: 't', id }),
    ],
    [
      'GetTaskPushNotificationConfig taskId',
      (id) => GetTaskPushNotificationConfigRequestSchema.safeParse({ taskId: id, id: 'c' }),
    ],
    [
      'ListTaskPushNotificationConfigs taskId',
      (id) => ListTaskPushNotificationConfigsRequestSchema.safeParse({ taskId: id }),
    ],
  ];
  it.each(cases)(`%s: ${MAX_ID_LENGTH} characters pass, one more is refused`, (_, parse) => {
    expect(parse(longest).success).toBe(true);
    expect(parse(over).success).toBe(false);
  });

  it('the SendMessage shortcut leaves an over-long id to the schema', () => {
    expect(simpleSendMessage({ message: message({ messageId: longest }) })).toBeDefined();
    for (const key of ['messageId', 'contextId', 'taskId']) {
      expect(simpleSendMessage({ message: message({ [key]: over }) })).toBeUndefined();
    }
  });
});

describe('an over-long id is InvalidParams on every binding, and nothing is stored', () => {
  const a2a = createA2AHandler({
    agentCard: {
      name: 'ids',
      description: 'ids',
      version: '1.0.0',
      capabilities: {},
      skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
    },
    executor: { execute: (ctx) => ctx.complete('done') },
    onError: () => {},
  });
  const post = (path: string, body: unknown) =>
    a2a.fetch(
      new Request(`http://agent.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const rpc = async (method: string, params: unknown, version?: string) => {
    const response = await post('/', { jsonrpc: '2.0', id: 1, method, params });
    const body = (await response.json()) as { error?: { code: number; message: string }; result?: unknown };
    return { version, ...body };
  };
  const taskCount = async () => ((await rpc('ListTasks', {})).result as { tasks: unknown[] }).tasks.length;

  it('JSON-RPC (v1.0 and v0.3): -32602, the id not echoed', async () => {
    for (const [method, params] of [
      ['SendMessage', { message: message({ messageId: over }) }],
      ['SendMessage', { message: message({ contextId: over }) }],
      ['GetTask', { id: over }],
      ['CancelTask', { id: over }],
      ['CreateTaskPushNotificationConfig', { taskId: 't', id: over, url }],
      [
        'message/send',
        { message: { kind: 'message', messageId: over, role: 'user', parts: [{ kind: 'text', text: 'x' }] } },
      ],
      ['tasks/get', { id: over }],
    ] as const) {
      const { error } = await rpc(method, params);
      expect(error?.code, method).toBe(-32602);
      expect(error?.message).not.toContain(over);
    }
    expect(await taskCount()).toBe(0);
  });

  it('HTTP+JSON: 400, nothing stored', async () => {
    const send = await post('/message:send', { message: message({ taskId: over }) });
    expect(send.status).toBe(400);
    expect(await send.text()).not.toContain(over);
    const get = await a2a.fetch(new Request(`http://agent.test/tasks/${over}`));
    expect(get.status).toBe(400);
    expect(await taskCount()).toBe(0);
    // The longest accepted id still works end to end.
    expect((await post('/message:send', { message: message({ messageId: longest }) })).status).toBe(200);
  });
});
