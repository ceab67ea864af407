import { isObject } from '../is-object.js';
import { compact } from './shape.js';
import type { V03Artifact, V03Message, V03Part, V03StreamResult, V03Task, V03TaskStatus } from './v03-types.js';

// The v0.3 HTTP+JSON wire: ProtoJSON of the v0.3 proto, with its original field names (snake_case), message `content`
// instead of `parts`, parts as `{text}` / `{file: {file_with_uri | file_with_bytes, mime_type, name}}` /
// `{data: {data}}`, enums as proto names (`ROLE_USER`, `TASK_STATE_CANCELLED`). Input is read leniently (snake_case or
// camelCase, and kind-tagged v0.3 JSON objects as well); output is what v0.3-era REST clients parse.

type Json = Record<string, unknown>;

const pick = (o: Json, snake: string, camel: string): unknown => o[snake] ?? o[camel];

/** A v0.3 ProtoJSON part (or an already kind-tagged one) as v0.3 JSON. */
function partFromProto(part: unknown): unknown {
  if (!isObject(part) || typeof part.kind === 'string') return part;
  const metadata = part.metadata;
  if (part.text !== undefined) return compact({ kind: 'text', text: part.text, metadata });
  if (isObject(part.file)) {
    const f = part.file;
    const file = compact({
      uri: pick(f, 'file_with_uri', 'fileWithUri') ?? f.uri,
      bytes: pick(f, 'file_with_bytes', 'fileWithBytes') ?? f.bytes,
      mimeType: pick(f, 'mime_type', 'mimeType'),
      name: f.name,
    });
    return compact({ kind: 'file', file, metadata });
  }
  if (part.data !== undefined) {
    const data = isObject(part.data) && isObject(part.data.data) ? part.data.data : part.data;
    return compact({ kind: 'data', data, metadata });
  }
  return part; // the JSON-RPC translation names what is wrong with it
}

const ROLES_IN: Record<string, string> = { ROLE_USER: 'user', ROLE_AGENT: 'agent', user: 'user', agent: 'agent' };

/** A v0.3 ProtoJSON message as the v0.3 JSON message the JSON-RPC translation reads. */
export function messageFromProto(message: unknown): unknown {
  if (!isObject(message)) return message;
  const parts = message.content ?? message.parts;
  return compact({
    kind: 'message',
    messageId: pick(message, 'message_id', 'messageId'),
    contextId: pick(message, 'context_id', 'contextId'),
    taskId: pick(message, 'task_id', 'taskId'),
    role: typeof message.role === 'string' ? (ROLES_IN[message.role] ?? message.role) : message.role,
    parts: Array.isArray(parts) ? parts.map(partFromProto) : parts,
    metadata: message.metadata,
    extensions: message.extensions,
    referenceTaskIds: pick(message, 'reference_task_ids', 'referenceTaskIds'),
  });
}

/** `SendMessageRequest` of the v0.3 REST wire as `message/send` params. */
export function sendParamsFromProto(body: Json): Json {
  const configuration = isObject(body.configuration) ? body.configuration : undefined;
  const push = configuration && pick(configuration, 'push_notification', 'pushNotification');
  return compact({
    message: messageFromProto(pick(body, 'message', 'request')),
    configuration:
      configuration &&
      compact({
        acceptedOutputModes: pick(configuration, 'accepted_output_modes', 'acceptedOutputModes'),
        historyLength: pick(configuration, 'history_length', 'historyLength'),
        blocking: configuration.blocking,
        pushNotificationConfig: isObject(push) ? pushConfigFromProto(push) : undefined,
      }),
    metadata: body.metadata,
  });
}

/** A v0.3 proto PushNotificationConfig as the v0.3 JSON one; proto3 defaults (`""`, `{}`) mean "not set". */
export function pushConfigFromProto(config: Json): Json {
  const auth = isObject(config.authentication) ? config.authentication : undefined;
  const schemes = auth?.schemes;
  const set = (v: unknown) => (v === '' ? undefined : v);
  return compact({
    id: set(config.id),
    url: config.url,
    token: set(config.token),
    authentication:
      auth && Array.isArray(schemes) && schemes.length > 0
        ? compact({ schemes, credentials: set(auth.credentials) })
        : undefined,
  });
}

const STATES_OUT: Record<string, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELLED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  unknown: 'TASK_STATE_UNSPECIFIED',
};

function partToProto(part: V03Part): Json {
  const metadata = part.metadata;
  if (part.kind === 'text') return compact({ text: part.text, metadata });
  if (part.kind === 'data') return compact({ data: { data: part.data }, metadata });
  const { uri, bytes, mimeType, name } = part.file;
  return compact({
    file: compact({ file_with_uri: uri, file_with_bytes: bytes, mime_type: mimeType, name }),
    metadata,
  });
}

export function messageToProto(message: V03Message): Json {
  return compact({
    message_id: message.messageId,
    context_id: message.contextId,
    task_id: message.taskId,
    role: message.role === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER',
    content: message.parts.map(partToProto),
    metadata: message.metadata,
    extensions: message.extensions,
  });
}

const statusToProto = (status: V03TaskStatus): Json =>
  compact({
    state: STATES_OUT[status.state] ?? 'TASK_STATE_UNSPECIFIED',
    message: status.message && messageToProto(status.message),
    timestamp: status.timestamp,
  });

const artifactToProto = (artifact: V03Artifact): Json =>
  compact({
    artifact_id: artifact.artifactId,
    name: artifact.name,
    description: artifact.description,
    parts: artifact.parts.map(partToProto),
    metadata: artifact.metadata,
    extensions: artifact.extensions,
  });

export function taskToProto(task: V03Task): Json {
  return compact({
    id: task.id,
    context_id: task.contextId,
    status: statusToProto(task.status),
    artifacts: task.artifacts?.map(artifactToProto),
    history: task.history?.map(messageToProto),
    metadata: task.metadata,
  });
}

/** A v0.3 JSON result (Task, Message or stream event) as the v0.3 proto's `SendMessageResponse`/`StreamResponse`. */
export function resultToProto(result: V03StreamResult | V03Task | V03Message): Json {
  switch (result.kind) {
    case 'task':
      return { task: taskToProto(result) };
    case 'message':
      return { message: messageToProto(result) };
    case 'status-update':
      return {
        status_update: compact({
          task_id: result.taskId,
          context_id: result.contextId,
          status: statusToProto(result.status),
          final: result.final,
          metadata: result.metadata,
        }),
      };
    default:
      return {
        artifact_update: compact({
          task_id: result.taskId,
          context_id: result.contextId,
          artifact: artifactToProto(result.artifact),
          append: result.append,
          last_chunk: result.lastChunk,
          metadata: result.metadata,
        }),
      };
  }
}

/**
 * A v0.3 JSON push config as the v0.3 proto `TaskPushNotificationConfig` (`name` = resource name), printed with the
 * proto's json names (`pushNotificationConfig`): what v0.3 REST clients read, unlike the snake_case task messages.
 */
export function pushConfigToProto(config: {
  taskId: string;
  pushNotificationConfig: { id?: string; url: string; token?: string; authentication?: unknown };
}): Json {
  const { id, url, token, authentication } = config.pushNotificationConfig;
  return {
    name: `tasks/${config.taskId}/pushNotificationConfigs/${id ?? ''}`,
    pushNotificationConfig: compact({ id, url, token, authentication }),
  };
}
