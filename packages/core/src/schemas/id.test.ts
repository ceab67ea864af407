import { describe, expect, it } from 'vitest';
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
