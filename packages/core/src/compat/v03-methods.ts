import { A2AError } from '../errors.js';
import type { OperationEnv } from '../server/operations.js';
import { call, type LegacyMethod, requireString, unary } from './legacy-call.js';
import { badShape, compact, optionalObject } from './shape.js';
import { toV03AgentCard } from './v03-card.js';
import {
  messageFromV03,
  pushConfigFromV03,
  toV03PushConfig,
  toV03SendResult,
  toV03StreamResult,
  toV03Task,
} from './v03-translate.js';

/** v0.3 `MessageSendParams` as a v1.0 SendMessageRequest (`blocking: false` = `returnImmediately: true`). */
function sendParamsFromV03(p: Record<string, unknown>): Record<string, unknown> {
  const config = optionalObject(p.configuration, '0.3', 'configuration');
  if (config?.blocking !== undefined && typeof config.blocking !== 'boolean') {
    throw badShape('0.3', 'configuration.blocking', 'must be a boolean');
  }
  const push = config?.pushNotificationConfig;
  return compact({
    tenant: p.tenant,
    message: messageFromV03(p.message, 'message'),
    configuration:
      config &&
      compact({
        acceptedOutputModes: config.acceptedOutputModes ?? undefined,
        historyLength: config.historyLength ?? undefined,
        taskPushNotificationConfig:
          push == null ? undefined : pushConfigFromV03(push, undefined, 'configuration.pushNotificationConfig'),
        returnImmediately: config.blocking === false ? true : undefined,
      }),
    metadata: p.metadata ?? undefined,
  });
}

/** v0.3 push get/delete: `id` is the TASK id; without `pushNotificationConfigId` (v0.2) the first config is meant. */
async function resolveConfigId(p: Record<string, unknown>, env: OperationEnv): Promise<{ taskId: string; id: string }> {
  const taskId = requireString(p.id, '0.3', 'id');
  if (p.pushNotificationConfigId != null)
    return { taskId, id: requireString(p.pushNotificationConfigId, '0.3', 'pushNotificationConfigId') };
  const list = await call('ListTaskPushNotificationConfigs', { taskId }, env, '0.3');
  const first = list.configs[0];
  if (!first)
    throw new A2AError('TaskNotFound', `Push notification config not found for task ${taskId}`, {
      metadata: { taskId },
    });
  return { taskId, id: first.id };
}

/** The v0.3 (and v0.2) JSON-RPC methods, each run as the v1.0 operation it names, its answer in v0.3 shapes. */
export const V03_METHODS: Readonly<Record<string, LegacyMethod>> = {
  'message/send': {
    version: '0.3',
    run: async (p, env) => unary(toV03SendResult(await call('SendMessage', sendParamsFromV03(p), env, '0.3'))),
  },
  'message/stream': {
    version: '0.3',
    run: async (p, env) => ({
      kind: 'stream',
      events: await call('SendStreamingMessage', sendParamsFromV03(p), env, '0.3'),
      frame: toV03StreamResult,
    }),
  },
  'tasks/get': {
    version: '0.3',
    run: async (p, env) =>
      unary(
        toV03Task(
          await call(
            'GetTask',
            compact({ tenant: p.tenant, id: p.id, historyLength: p.historyLength ?? undefined }),
            env,
            '0.3',
          ),
        ),
      ),
  },
  'tasks/cancel': {
    version: '0.3',
    run: async (p, env) =>
      unary(
        toV03Task(
          await call(
            'CancelTask',
            compact({ tenant: p.tenant, id: p.id, metadata: p.metadata ?? undefined }),
            env,
            '0.3',
          ),
        ),
      ),
  },
  'tasks/resubscribe': {
    version: '0.3',
    run: async (p, env) => ({
      kind: 'stream',
      events: await call('SubscribeToTask', compact({ tenant: p.tenant, id: p.id }), env, '0.3'),
      frame: toV03StreamResult,
    }),
  },
  'tasks/pushNotificationConfig/set': {
    version: '0.3',
    run: async (p, env) => {
      const taskId = requireString(p.taskId, '0.3', 'taskId');
      const config = pushConfigFromV03(p.pushNotificationConfig, taskId, 'pushNotificationConfig');
      // v0.3 configs without an id are the task's default one (set again, it is replaced), as v0.3 clients expect.
      const id = config.id || 'default';
      const saved = await call('CreateTaskPushNotificationConfig', { ...config, id, tenant: p.tenant }, env, '0.3');
      return unary(toV03PushConfig(saved));
    },
  },
  'tasks/pushNotificationConfig/get': {
    version: '0.3',
    run: async (p, env) => {
      const ids = await resolveConfigId(p, env);
      return unary(toV03PushConfig(await call('GetTaskPushNotificationConfig', ids, env, '0.3')));
    },
  },
  'tasks/pushNotificationConfig/list': {
    version: '0.3',
    run: async (p, env) => {
      const list = await call('ListTaskPushNotificationConfigs', { taskId: p.id }, env, '0.3');
      return unary(list.configs.map(toV03PushConfig));
    },
  },
  'tasks/pushNotificationConfig/delete': {
    version: '0.3',
    run: async (p, env) => {
      const taskId = requireString(p.id, '0.3', 'id');
      const id = requireString(p.pushNotificationConfigId, '0.3', 'pushNotificationConfigId');
      await call('DeleteTaskPushNotificationConfig', { taskId, id }, env, '0.3');
      return unary(null);
    },
  },
  'agent/getAuthenticatedExtendedCard': {
    version: '0.3',
    run: async (_p, env) => unary(toV03AgentCard(await call('GetExtendedAgentCard', {}, env, '0.3'))),
  },
};
