// @a2a/client/v03: the client speaking A2A v0.3 JSON-RPC to agents that have no v1.0 interface. Requests and results
// stay v1.0 objects; core's v0.3 translators convert them (they carry core's zod schemas, hence a separate entry).
import type { AgentCard, Message, TaskPushNotificationConfig } from '@a2a/core';
import { A2AError, isA2AError } from '@a2a/core/errors';
import {
  fromV03AgentCard,
  fromV03Message,
  fromV03PushConfig,
  fromV03StreamResult,
  fromV03Task,
  toV03Message,
  toV03PushConfig,
  type V03TaskPushNotificationConfig,
} from '@a2a/core/internal';
import { checkCard } from './card.js';
import type { ProtocolPlugin } from './client-options.js';
import { invalidResponse } from './errors.js';
import { type JsonRpcDialect, JsonRpcWire } from './json-rpc-wire.js';
import type { OperationName } from './options.js';

const METHODS: Record<OperationName, string | undefined> = {
  SendMessage: 'message/send',
  SendStreamingMessage: 'message/stream',
  GetTask: 'tasks/get',
  ListTasks: undefined, // v0.3 JSON-RPC has no tasks/list
  CancelTask: 'tasks/cancel',
  SubscribeToTask: 'tasks/resubscribe',
  CreateTaskPushNotificationConfig: 'tasks/pushNotificationConfig/set',
  GetTaskPushNotificationConfig: 'tasks/pushNotificationConfig/get',
  ListTaskPushNotificationConfigs: 'tasks/pushNotificationConfig/list',
  DeleteTaskPushNotificationConfig: 'tasks/pushNotificationConfig/delete',
  GetExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
};

/** The agent's v0.3 answer read with core's translators; a shape they refuse is the agent's fault, not ours. */
function fromAgent<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw isA2AError(error) ? invalidResponse(`not a valid A2A 0.3 answer: ${error.message}`, error) : error;
  }
}

/** v1.0 SendMessageRequest fields as v0.3 MessageSendParams (`returnImmediately: true` = `blocking: false`). */
function sendParams(p: Record<string, unknown>) {
  const config = (p.configuration ?? {}) as Record<string, unknown>;
  const push = config.taskPushNotificationConfig as TaskPushNotificationConfig | undefined;
  const configuration = {
    ...(config.returnImmediately === undefined ? {} : { blocking: !config.returnImmediately }),
    ...(config.historyLength === undefined ? {} : { historyLength: config.historyLength }),
    ...(config.acceptedOutputModes === undefined ? {} : { acceptedOutputModes: config.acceptedOutputModes }),
    ...(push ? { pushNotificationConfig: toV03PushConfig({ ...push, taskId: '' }).pushNotificationConfig } : {}),
  };
  return {
    message: toV03Message(p.message as Message),
    ...(Object.keys(configuration).length ? { configuration } : {}),
    ...(p.metadata === undefined ? {} : { metadata: p.metadata }),
  };
}

const configIds = (p: Record<string, unknown>) => ({ id: p.taskId, pushNotificationConfigId: p.id });

const V03: JsonRpcDialect = {
  version: '0.3',
  method(operation) {
    const method = METHODS[operation];
    if (!method) throw new A2AError('UnsupportedOperation', `${operation} is not part of A2A 0.3 JSON-RPC`);
    return method;
  },
  params(operation, p) {
    switch (operation) {
      case 'SendMessage':
      case 'SendStreamingMessage':
        return sendParams(p);
      case 'CreateTaskPushNotificationConfig':
        return toV03PushConfig(p as unknown as TaskPushNotificationConfig);
      case 'GetTaskPushNotificationConfig':
      case 'DeleteTaskPushNotificationConfig':
        return configIds(p);
      case 'ListTaskPushNotificationConfigs':
        return { id: p.taskId };
      case 'GetExtendedAgentCard':
        return undefined;
      default:
        return p; // GetTask, CancelTask, SubscribeToTask: { id, historyLength?, metadata? } as in v1.0
    }
  },
  result(operation, r) {
    return fromAgent(() => {
      switch (operation) {
        case 'SendMessage':
          return (r as { kind?: unknown })?.kind === 'message'
            ? { message: fromV03Message(r) }
            : { task: fromV03Task(r) };
        case 'GetTask':
        case 'CancelTask':
          return fromV03Task(r);
        case 'CreateTaskPushNotificationConfig':
        case 'GetTaskPushNotificationConfig':
          return fromV03PushConfig(r as V03TaskPushNotificationConfig);
        case 'ListTaskPushNotificationConfigs':
          if (!Array.isArray(r)) throw invalidResponse('tasks/pushNotificationConfig/list answered no array');
          return { configs: r.map((c: V03TaskPushNotificationConfig) => fromV03PushConfig(c)) };
        case 'GetExtendedAgentCard':
          return fromV03AgentCard(r);
        default:
          return r ?? {};
      }
    });
  },
  event: (r) => fromAgent(() => fromV03StreamResult(r)),
};

/** Any card as v1.0: one that lists `supportedInterfaces` as it is, a v0.3 card through core's translator. */
function readCard(json: unknown, from: string): AgentCard {
  const listed = (json as { supportedInterfaces?: unknown } | null)?.supportedInterfaces;
  if (Array.isArray(listed) && listed.length) return checkCard(json, from);
  return checkCard(
    fromAgent(() => fromV03AgentCard(json)),
    from,
  );
}

/**
 * A2A v0.3 over JSON-RPC: `A2AClient.connect(url, { protocol: v03 })` uses the card's 0.3 interface (a v0.3 card's
 * `url`, or a v1.0 card's `protocolVersion: 0.3` entry). ListTasks is not in v0.3 and throws UnsupportedOperation.
 */
export const v03: ProtocolPlugin = {
  version: '0.3',
  readCard,
  wire: (binding, url, transport) => (binding === 'JSONRPC' ? new JsonRpcWire(url, transport, V03) : undefined),
};
