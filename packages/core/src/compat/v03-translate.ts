import { isObject } from '../is-object.js';
import type { Message, Part } from '../schemas/message.js';
import type { TaskPushNotificationConfig, TaskPushNotificationConfigInput } from '../schemas/push-config.js';
import type { Artifact, StreamResponse, Task, TaskState, TaskStatus } from '../schemas/task.js';
import { isInterrupted, isTerminal } from '../task-state.js';
import { badShape, compact, type LegacyVersion, optionalObject, optionalString } from './shape.js';
import type {
  V03Artifact,
  V03Message,
  V03Part,
  V03PushNotificationConfig,
  V03StreamResult,
  V03Task,
  V03TaskPushNotificationConfig,
  V03TaskState,
  V03TaskStatus,
} from './v03-types.js';

// Translation between the v0.3 JSON wire shapes and the v1.0 objects the engine speaks. Inbound functions build
// raw v1.0 JSON (the v1.0 zod schemas validate it afterwards); outbound functions take validated v1.0 objects.

const STATE_OUT: Record<TaskState | 'TASK_STATE_UNSPECIFIED', V03TaskState> = {
  TASK_STATE_UNSPECIFIED: 'unknown',
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
};
const STATE_IN = Object.fromEntries(Object.entries(STATE_OUT).map(([k, v]) => [v, k])) as Record<string, string>;

export const toV03State = (state: TaskState): V03TaskState => STATE_OUT[state];

/** Marks a non-object `data` value wrapped as `{value}` for v0.3, whose data parts hold objects only. */
const DATA_COMPAT = 'data_part_compat';

// ---------------------------------------------------------------------------------------------- v1.0 -> v0.3

export function toV03Part(part: Part): V03Part {
  const metadata = part.metadata;
  if (part.text !== undefined) return compact({ kind: 'text' as const, text: part.text, metadata });
  if (part.raw !== undefined || part.url !== undefined) {
    const file = compact({ name: part.filename, mimeType: part.mediaType, bytes: part.raw, uri: part.url });
    return compact({ kind: 'file' as const, file, metadata });
  }
  if (isObject(part.data)) return compact({ kind: 'data' as const, data: part.data, metadata });
  return { kind: 'data', data: { value: part.data ?? null }, metadata: { ...metadata, [DATA_COMPAT]: true } };
}

export function toV03Message(message: Message): V03Message {
  return compact({
    kind: 'message' as const,
    messageId: message.messageId,
    role: message.role === 'ROLE_AGENT' ? ('agent' as const) : ('user' as const),
    parts: message.parts.map(toV03Part),
    contextId: message.contextId,
    taskId: message.taskId,
    metadata: message.metadata,
    extensions: message.extensions,
    referenceTaskIds: message.referenceTaskIds,
  });
}

export function toV03Status(status: TaskStatus): V03TaskStatus {
  return compact({
    state: toV03State(status.state),
    message: status.message && toV03Message(status.message),
    timestamp: status.timestamp,
  });
}

export function toV03Artifact(artifact: Artifact): V03Artifact {
  return compact({
    artifactId: artifact.artifactId,
    name: artifact.name,
    description: artifact.description,
    parts: artifact.parts.map(toV03Part),
    metadata: artifact.metadata,
    extensions: artifact.extensions,
  });
}

export function toV03Task(task: Task): V03Task {
  return compact({
    kind: 'task' as const,
    id: task.id,
    contextId: task.contextId,
    status: toV03Status(task.status),
    artifacts: task.artifacts?.map(toV03Artifact),
    history: task.history?.map(toV03Message),
    metadata: task.metadata,
  });
}

/**
 * A v1.0 StreamResponse (stream event or push notification body) as the bare kind-tagged v0.3 object. A status
 * event is `final` when it ends the stream: terminal and interrupted states (the engine closes streams on both).
 */
export function toV03StreamResult(response: StreamResponse): V03StreamResult {
  if ('task' in response) return toV03Task(response.task);
  if ('message' in response) return toV03Message(response.message);
  if ('statusUpdate' in response) {
    const e = response.statusUpdate;
    const final = isTerminal(e.status.state) || isInterrupted(e.status.state);
    return compact({
      kind: 'status-update' as const,
      taskId: e.taskId,
      contextId: e.contextId,
      status: toV03Status(e.status),
      final,
      metadata: e.metadata,
    });
  }
  const e = response.artifactUpdate;
  return compact({
    kind: 'artifact-update' as const,
    taskId: e.taskId,
    contextId: e.contextId,
    artifact: toV03Artifact(e.artifact),
    append: e.append,
    lastChunk: e.lastChunk,
    metadata: e.metadata,
  });
}

/** SendMessage's result: v0.3 answers with the bare Task or Message. */
export const toV03SendResult = (result: { task: Task } | { message: Message }): V03Task | V03Message =>
  'task' in result ? toV03Task(result.task) : toV03Message(result.message);

export function toV03PushConfig(config: TaskPushNotificationConfig): V03TaskPushNotificationConfig {
  const auth = config.authentication;
  return {
    taskId: config.taskId,
    pushNotificationConfig: compact({
      id: config.id,
      url: config.url,
      token: config.token,
      authentication: auth && compact({ schemes: [auth.scheme], credentials: auth.credentials }),
    }),
  };
}

// ---------------------------------------------------------------------------------------------- v0.3 -> v1.0

/** A v0.3 part as raw v1.0 JSON; `version` names the wire in error messages ('0.1' reads `type` for `kind`). */
export function partFromV03(input: unknown, field: string, version: LegacyVersion = '0.3'): Record<string, unknown> {
  if (!isObject(input)) throw badShape(version, field, 'must be an object');
  const tag = version === '0.1' ? 'type' : 'kind';
  const kind = input[tag] ?? (version === '0.1' ? input.kind : undefined);
  const metadata = optionalObject(input.metadata, version, `${field}.metadata`);
  switch (kind) {
    case 'text':
      if (typeof input.text !== 'string') throw badShape(version, `${field}.text`, 'must be a string');
      return compact({ text: input.text, metadata });
    case 'file': {
      const file = optionalObject(input.file, version, `${field}.file`);
      if (!file) throw badShape(version, `${field}.file`, 'is required for a file part');
      const bytes = optionalString(file.bytes, version, `${field}.file.bytes`);
      const uri = optionalString(file.uri, version, `${field}.file.uri`);
      if ((bytes === undefined) === (uri === undefined)) {
        throw badShape(version, `${field}.file`, 'must have exactly one of bytes or uri');
      }
      return compact({
        raw: bytes,
        url: uri,
        filename: optionalString(file.name, version, `${field}.file.name`),
        mediaType: optionalString(file.mimeType, version, `${field}.file.mimeType`),
        metadata,
      });
    }
    case 'data': {
      if (!isObject(input.data)) throw badShape(version, `${field}.data`, 'must be a JSON object');
      if (metadata?.[DATA_COMPAT] === true && Object.keys(input.data).length === 1 && 'value' in input.data) {
        const { [DATA_COMPAT]: _, ...rest } = metadata;
        return compact({ data: input.data.value, metadata: Object.keys(rest).length ? rest : undefined });
      }
      return compact({ data: input.data, metadata });
    }
    default: {
      const shown = kind === undefined ? `no ${tag}` : `${tag} ${JSON.stringify(kind)}`;
      throw badShape(version, `${field}.${tag}`, `${shown}: a part must have ${tag} "text", "file" or "data"`);
    }
  }
}

export function messageFromV03(input: unknown, field: string, version: LegacyVersion = '0.3'): Record<string, unknown> {
  if (!isObject(input)) throw badShape(version, field, 'must be an object');
  if (version === '0.3' && input.kind !== undefined && input.kind !== 'message') {
    throw badShape(version, `${field}.kind`, `must be "message", got ${JSON.stringify(input.kind)}`);
  }
  const role = input.role === 'user' ? 'ROLE_USER' : input.role === 'agent' ? 'ROLE_AGENT' : undefined;
  if (!role) throw badShape(version, `${field}.role`, `must be "user" or "agent", got ${JSON.stringify(input.role)}`);
  if (!Array.isArray(input.parts)) throw badShape(version, `${field}.parts`, 'must be an array');
  return compact({
    messageId: input.messageId,
    role,
    parts: input.parts.map((p, i) => partFromV03(p, `${field}.parts[${i}]`, version)),
    contextId: input.contextId ?? undefined,
    taskId: input.taskId ?? undefined,
    metadata: input.metadata ?? undefined,
    extensions: input.extensions ?? undefined,
    referenceTaskIds: input.referenceTaskIds ?? undefined,
  });
}

export function statusFromV03(input: unknown, field: string): Record<string, unknown> {
  if (!isObject(input)) throw badShape('0.3', field, 'must be an object');
  const state = typeof input.state === 'string' ? STATE_IN[input.state] : undefined;
  if (!state) throw badShape('0.3', `${field}.state`, `unknown state ${JSON.stringify(input.state)}`);
  return compact({
    state,
    message: input.message == null ? undefined : messageFromV03(input.message, `${field}.message`),
    timestamp: input.timestamp ?? undefined,
  });
}

export function artifactFromV03(input: unknown, field: string): Record<string, unknown> {
  if (!isObject(input)) throw badShape('0.3', field, 'must be an object');
  if (!Array.isArray(input.parts)) throw badShape('0.3', `${field}.parts`, 'must be an array');
  return compact({
    artifactId: input.artifactId,
    name: input.name ?? undefined,
    description: input.description ?? undefined,
    parts: input.parts.map((p, i) => partFromV03(p, `${field}.parts[${i}]`)),
    metadata: input.metadata ?? undefined,
    extensions: input.extensions ?? undefined,
  });
}

export function taskFromV03(input: unknown, field: string): Record<string, unknown> {
  if (!isObject(input)) throw badShape('0.3', field, 'must be an object');
  return compact({
    id: input.id,
    contextId: input.contextId,
    status: statusFromV03(input.status, `${field}.status`),
    artifacts: Array.isArray(input.artifacts)
      ? input.artifacts.map((a, i) => artifactFromV03(a, `${field}.artifacts[${i}]`))
      : undefined,
    history: Array.isArray(input.history)
      ? input.history.map((m, i) => messageFromV03(m, `${field}.history[${i}]`))
      : undefined,
    metadata: input.metadata ?? undefined,
  });
}

/** v0.3 push config (nested) as a v1.0 flat config; v1.0 carries one auth scheme, so only `schemes[0]` is kept. */
export function pushConfigFromV03(
  input: unknown,
  taskId: string | undefined,
  field: string,
  version: LegacyVersion = '0.3',
) {
  const config = optionalObject(input, version, field);
  if (!config) throw badShape(version, field, 'is required');
  const auth = optionalObject(config.authentication, version, `${field}.authentication`);
  const schemes = auth?.schemes;
  if (auth && !Array.isArray(schemes)) throw badShape(version, `${field}.authentication.schemes`, 'must be an array');
  const scheme = Array.isArray(schemes) ? schemes[0] : undefined;
  return compact({
    id: config.id ?? undefined,
    taskId,
    url: config.url,
    token: config.token ?? undefined,
    authentication: scheme === undefined ? undefined : compact({ scheme, credentials: auth?.credentials ?? undefined }),
  });
}

export function fromV03PushConfig(config: V03TaskPushNotificationConfig): TaskPushNotificationConfigInput {
  return pushConfigFromV03(
    config.pushNotificationConfig,
    config.taskId,
    'pushNotificationConfig',
  ) as TaskPushNotificationConfigInput;
}

export type { V03PushNotificationConfig };
