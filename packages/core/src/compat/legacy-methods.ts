import { A2AError, fromZodError, isA2AError } from '../errors.js';
import { isObject } from '../is-object.js';
import type { Message } from '../schemas/message.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { StreamResponse } from '../schemas/task.js';
import {
  OPERATIONS,
  type OperationEnv,
  type OperationName,
  type OperationOutput,
  parseOperationParams,
  withCall,
} from '../server/operations.js';
import { ownerOf } from '../server/request-handler.js';
import { BoundedCache } from '../store/bounded-cache.js';
import { badShape, compact, type LegacyVersion, optionalObject } from './shape.js';
import { toV01Message, V01View } from './v01-translate.js';
import { toV03AgentCard } from './v03-card.js';
import {
  messageFromV03,
  pushConfigFromV03,
  toV03PushConfig,
  toV03SendResult,
  toV03StreamResult,
  toV03Task,
} from './v03-translate.js';

/** What a legacy method produces: a unary JSON result, or v1.0 events plus their per-stream wire translator. */
export type LegacyResult =
  | { kind: 'unary'; result: unknown }
  | { kind: 'stream'; events: AsyncGenerator<StreamResponse>; frame: (event: StreamResponse) => unknown };

interface LegacyMethod {
  version: LegacyVersion;
  run(params: Record<string, unknown>, env: OperationEnv, compat: LegacyMethods): Promise<LegacyResult>;
}

/** Runs a v1.0 operation on translated params; validation errors say the request was read as `version`. */
async function call<N extends OperationName>(
  name: N,
  params: unknown,
  env: OperationEnv,
  version: LegacyVersion,
): Promise<Awaited<OperationOutput<N>>> {
  const operation = OPERATIONS[name];
  const parsed = parseOperationParams(operation, params);
  if (!parsed.success) {
    const error = fromZodError(parsed.error);
    error.message = `${error.message} (request read as A2A ${version}, translated to ${name})`;
    throw error;
  }
  // Awaited here: TypeScript matches a generic result to the promised type only once it is awaited.
  return await operation.run(parsed.data, withCall(env, { protocolVersion: version }));
}

const unary = (result: unknown): LegacyResult => ({ kind: 'unary', result });
const requireString = (v: unknown, version: LegacyVersion, field: string): string => {
  if (typeof v !== 'string' || v === '') throw badShape(version, field, 'must be a non-empty string');
  return v;
};

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

const V03: Record<string, LegacyMethod> = {
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

/** v0.1 `TaskSendParams` as a v1.0 SendMessageRequest; `sessionId` is the context. */
async function sendParamsFromV01(p: Record<string, unknown>, env: OperationEnv, compat: LegacyMethods) {
  const clientId = p.id == null ? undefined : requireString(p.id, '0.1', 'id');
  const serverId = clientId === undefined ? undefined : await compat.existingTask(clientId, env);
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

const V01: Record<string, LegacyMethod> = {
  'tasks/send': {
    version: '0.1',
    run: async (p, env, compat) => {
      const { clientId, request } = await sendParamsFromV01(p, env, compat);
      const result = await call('SendMessage', request, env, '0.1');
      if ('message' in result) return unary(messageAsV01Task(result.message, clientId));
      compat.remember(clientId, result.task.id, env);
      return unary(compat.view(env).task(result.task));
    },
  },
  'tasks/sendSubscribe': {
    version: '0.1',
    run: async (p, env, compat) => {
      const { clientId, request } = await sendParamsFromV01(p, env, compat);
      const events = await call('SendStreamingMessage', request, env, '0.1');
      const view = compat.view(env);
      return {
        kind: 'stream',
        events,
        frame: (event) => {
          if ('task' in event) compat.remember(clientId, event.task.id, env);
          return 'message' in event ? messageAsV01Task(event.message, clientId) : view.event(event);
        },
      };
    },
  },
  'tasks/get': {
    version: '0.1',
    run: async (p, env, compat) => {
      const id = compat.serverTaskId(requireString(p.id, '0.1', 'id'), env);
      const task = await call('GetTask', compact({ id, historyLength: p.historyLength ?? undefined }), env, '0.1');
      return unary(compat.view(env).task(task));
    },
  },
  'tasks/cancel': {
    version: '0.1',
    run: async (p, env, compat) => {
      const id = compat.serverTaskId(requireString(p.id, '0.1', 'id'), env);
      return unary(compat.view(env).task(await call('CancelTask', { id }, env, '0.1')));
    },
  },
  'tasks/resubscribe': {
    version: '0.1',
    run: async (p, env, compat) => {
      const id = compat.serverTaskId(requireString(p.id, '0.1', 'id'), env);
      const view = compat.view(env);
      const events = await call('SubscribeToTask', { id }, env, '0.1');
      return { kind: 'stream', events, frame: (event) => view.event(event) };
    },
  },
  'tasks/pushNotification/set': {
    version: '0.1',
    run: async (p, env, compat) => {
      const clientId = requireString(p.id, '0.1', 'id');
      const taskId = compat.serverTaskId(clientId, env);
      const config = pushConfigFromV03(p.pushNotificationConfig, taskId, 'pushNotificationConfig', '0.1');
      const saved = await call('CreateTaskPushNotificationConfig', config, env, '0.1');
      return unary({ id: clientId, pushNotificationConfig: v01PushConfig(saved) });
    },
  },
  'tasks/pushNotification/get': {
    version: '0.1',
    run: async (p, env, compat) => {
      const clientId = requireString(p.id, '0.1', 'id');
      const taskId = compat.serverTaskId(clientId, env);
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

/** The method tables of the older wires, plus the v0.1 client-chosen task id aliases. */
export class LegacyMethods {
  /** v0.1 clients name their tasks; the engine does not take client ids, so keep (owner, client id) -> server id. */
  private readonly aliases = new BoundedCache<string, string>({ max: 10_000 });
  private readonly reverse = new BoundedCache<string, string>({ max: 10_000 });

  static find(method: string): LegacyMethod | undefined {
    if (Object.hasOwn(V03, method)) return V03[method];
    if (Object.hasOwn(V01, method)) return V01[method];
    return undefined;
  }

  /** Every method name of the tables (legacy-routes.ts lists them for the handler, which checks names first). */
  static names(): string[] {
    return [...new Set([...Object.keys(V03), ...Object.keys(V01)])];
  }

  /** Runs a legacy method. `version` picks the table for names both wires have (`tasks/get` …). */
  async run(method: string, params: unknown, env: OperationEnv, version: LegacyVersion): Promise<LegacyResult> {
    env.telemetry?.method(method, version);
    const table = version === '0.1' && Object.hasOwn(V01, method) ? V01 : V03;
    const entry = Object.hasOwn(table, method) ? table[method] : LegacyMethods.find(method);
    if (!entry) throw new A2AError('MethodNotFound', `Method not found: ${method} (request read as A2A ${version})`);
    if (params !== undefined && params !== null && !isObject(params)) {
      throw new A2AError(
        'InvalidParams',
        `Invalid params: params must be an object (request read as A2A ${entry.version})`,
      );
    }
    if (isObject(params) && Object.hasOwn(params, '')) throw badShape(entry.version, '(root)', 'empty field name');
    return entry.run(params ?? {}, env, this);
  }

  /** Is `id` a task id a v0.1 client chose (so header-less tasks/get & co. answer in v0.1 shapes)? */
  isV01Alias(id: string, env: OperationEnv): boolean {
    return this.aliases.has(this.key(id, env));
  }

  private key = (clientId: string, env: OperationEnv) => `${ownerOf(env.call)}\u0000${clientId}`;

  serverTaskId(clientId: string, env: OperationEnv): string {
    return this.aliases.get(this.key(clientId, env)) ?? clientId;
  }

  /** The server id of the task a v0.1 client names, or `undefined` when it is a new task. */
  async existingTask(clientId: string, env: OperationEnv): Promise<string | undefined> {
    const known = this.aliases.get(this.key(clientId, env));
    if (known) return known;
    try {
      await env.handler.getTask({ id: clientId, historyLength: 0 }, env.call);
      return clientId;
    } catch (error) {
      if (isA2AError(error) && error.type === 'TaskNotFound') return undefined;
      throw error;
    }
  }

  remember(clientId: string | undefined, serverId: string, env: OperationEnv): void {
    if (clientId === undefined || clientId === serverId) return;
    this.aliases.set(this.key(clientId, env), serverId);
    this.reverse.set(this.key(serverId, env), clientId);
  }

  view(env: OperationEnv): V01View {
    return new V01View((serverId) => this.reverse.get(this.key(serverId, env)) ?? serverId);
  }
}
