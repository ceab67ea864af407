import { A2AError } from '../errors.js';
import type { Message } from '../schemas/message.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { OperationEnv } from '../server/operations.js';
import { call, type LegacyMethod, requireString, unary } from './legacy-call.js';
import { compact } from './shape.js';
import type { V01TaskIds } from './v01-task-ids.js';
import { toV01Message } from './v01-translate.js';
import { messageFromV03, pushConfigFromV03, toV03PushConfig } from './v03-translate.js';

/** v0.1 `TaskSendParams` as a v1.0 SendMessageRequest; `sessionId` is the context. */
async function sendParamsFromV01(p: Record<string, unknown>, env: OperationEnv, ids: V01TaskIds) {
  const clientId = p.id == null ? undefined : requireString(p.id, '0.1', 'id');
  const serverId = clientId === undefined ? undefined : await ids.existingTask(clientId, env);
  const message = messageFromV03(p.message, 'message', '0.1');
  const push = p.pushNotification;
  return {
    clientId,
    request: compact({
      message: compact({
        ...message,
        messageId: message.messageId ?? crypto.randomUUID(),
        taskId: serverId,
        contextId: typeof p.sessionId === 'string' && p.sessionId !== '' ? p.sessionId : undefined,
      }),
      configuration: compact({
        acceptedOutputModes: p.acceptedOutputModes ?? undefined,
        historyLength: p.historyLength ?? undefined,
        taskPushNotificationConfig:
          push == null ? undefined : pushConfigFromV03(push, undefined, 'pushNotification', '0.1'),
      }),
      metadata: p.metadata ?? undefined,
    }),
  };
}

/** v0.1 has no direct messages: a message answer is shown as a completed task carrying it. */
const messageAsV01Task = (message: Message, clientId: string | undefined) =>
  compact({
    id: clientId ?? message.taskId ?? message.messageId,
    sessionId: message.contextId,
    status: { state: 'completed', message: toV01Message(message) },
  });

/** The v0.1 JSON-RPC methods, run as v1.0 operations; v0.1 clients name their tasks, so `ids` maps those names. */
export const V01_METHODS: Readonly<Record<string, LegacyMethod>> = {
  'tasks/send': {
    version: '0.1',
    run: async (p, env, ids) => {
      const { clientId, request } = await sendParamsFromV01(p, env, ids);
      const result = await call('SendMessage', request, env, '0.1');
      if ('message' in result) return unary(messageAsV01Task(result.message, clientId));
      ids.remember(clientId, result.task.id, env);
      return unary(ids.view(env).task(result.task));
    },
  },
  'tasks/sendSubscribe': {
    version: '0.1',
    run: async (p, env, ids) => {
      const { clientId, request } = await sendParamsFromV01(p, env, ids);
      const events = await call('SendStreamingMessage', request, env, '0.1');
      const view = ids.view(env);
      return {
        kind: 'stream',
        events,
        frame: (event) => {
          if ('task' in event) ids.remember(clientId, event.task.id, env);
          return 'message' in event ? messageAsV01Task(event.message, clientId) : view.event(event);
        },
      };
    },
  },
  'tasks/get': {
    version: '0.1',
    run: async (p, env, ids) => {
      const id = ids.serverTaskId(requireString(p.id, '0.1', 'id'), env);
      const task = await call('GetTask', compact({ id, historyLength: p.historyLength ?? undefined }), env, '0.1');
      return unary(ids.view(env).task(task));
    },
  },
  'tasks/cancel': {
    version: '0.1',
    run: async (p, env, ids) => {
      const id = ids.serverTaskId(requireString(p.id, '0.1', 'id'), env);
      return unary(ids.view(env).task(await call('CancelTask', { id }, env, '0.1')));
    },
  },
  'tasks/resubscribe': {
    version: '0.1',
    run: async (p, env, ids) => {
      const id = ids.serverTaskId(requireString(p.id, '0.1', 'id'), env);
      const view = ids.view(env);
      const events = await call('SubscribeToTask', { id }, env, '0.1');
      return { kind: 'stream', events, frame: (event) => view.event(event) };
    },
  },
  'tasks/pushNotification/set': {
    version: '0.1',
    run: async (p, env, ids) => {
      const clientId = requireString(p.id, '0.1', 'id');
      const taskId = ids.serverTaskId(clientId, env);
      const config = pushConfigFromV03(p.pushNotificationConfig, taskId, 'pushNotificationConfig', '0.1');
      const saved = await call('CreateTaskPushNotificationConfig', config, env, '0.1');
      return unary({ id: clientId, pushNotificationConfig: v01PushConfig(saved) });
    },
  },
  'tasks/pushNotification/get': {
    version: '0.1',
    run: async (p, env, ids) => {
      const clientId = requireString(p.id, '0.1', 'id');
      const taskId = ids.serverTaskId(clientId, env);
      const list = await call('ListTaskPushNotificationConfigs', { taskId }, env, '0.1');
      const first = list.configs[0];
      if (!first)
        throw new A2AError('TaskNotFound', `Push notification config not found for task ${clientId}`, {
          metadata: { taskId: clientId },
        });
      return unary({ id: clientId, pushNotificationConfig: v01PushConfig(first) });
    },
  },
};

const v01PushConfig = (config: TaskPushNotificationConfig) => {
  const { pushNotificationConfig } = toV03PushConfig(config);
  const { id: _, ...rest } = pushNotificationConfig;
  return rest;
};
