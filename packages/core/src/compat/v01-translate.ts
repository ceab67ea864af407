import { isObject } from '../is-object.js';
import type { Message, Part } from '../schemas/message.js';
import type { Artifact, StreamResponse, Task, TaskState, TaskStatus } from '../schemas/task.js';
import { isInterrupted, isTerminal } from '../task-state.js';
import { compact } from './shape.js';

// v0.1 wire shapes (`tasks/send` era): parts tagged with `type`, no messageId/contextId on messages, `sessionId`
// for the context, client-chosen task ids, artifacts addressed by `index`, events carrying the task `id`.

/** v0.1 knows neither `rejected` nor `auth-required`: the closest state it has stands in. */
const STATE_OUT: Record<TaskState, string> = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_REJECTED: 'failed',
  TASK_STATE_AUTH_REQUIRED: 'input-required',
};

export function toV01Part(part: Part): Record<string, unknown> {
  const metadata = part.metadata;
  if (part.text !== undefined) return compact({ type: 'text', text: part.text, metadata });
  if (part.raw !== undefined || part.url !== undefined) {
    return compact({
      type: 'file',
      file: compact({ name: part.filename, mimeType: part.mediaType, bytes: part.raw, uri: part.url }),
      metadata,
    });
  }
  return compact({ type: 'data', data: isObject(part.data) ? part.data : { value: part.data ?? null }, metadata });
}

export const toV01Message = (message: Message): Record<string, unknown> =>
  compact({
    role: message.role === 'ROLE_AGENT' ? 'agent' : 'user',
    parts: message.parts.map(toV01Part),
    metadata: message.metadata,
  });

const toV01Status = (status: TaskStatus): Record<string, unknown> =>
  compact({
    state: STATE_OUT[status.state],
    message: status.message && toV01Message(status.message),
    timestamp: status.timestamp,
  });

/** Per-response translator: task ids are shown as the client chose them, artifacts get stable indexes. */
export class V01View {
  private readonly indexes = new Map<string, number>();

  constructor(private readonly clientTaskId: (serverId: string) => string) {}

  private index(artifactId: string): number {
    const known = this.indexes.get(artifactId);
    if (known !== undefined) return known;
    const next = this.indexes.size;
    this.indexes.set(artifactId, next);
    return next;
  }

  private artifact(artifact: Artifact, extra: { append?: boolean | undefined; lastChunk?: boolean | undefined } = {}) {
    return compact({
      name: artifact.name,
      description: artifact.description,
      parts: artifact.parts.map(toV01Part),
      index: this.index(artifact.artifactId),
      append: extra.append,
      lastChunk: extra.lastChunk,
      metadata: artifact.metadata,
    });
  }

  task(task: Task): Record<string, unknown> {
    return compact({
      id: this.clientTaskId(task.id),
      sessionId: task.contextId,
      status: toV01Status(task.status),
      artifacts: task.artifacts?.map((a) => this.artifact(a)),
      history: task.history?.map(toV01Message),
      metadata: task.metadata,
    });
  }

  event(response: StreamResponse): Record<string, unknown> {
    if ('task' in response) return this.task(response.task);
    if ('message' in response) return toV01Message(response.message);
    if ('statusUpdate' in response) {
      const e = response.statusUpdate;
      return compact({
        id: this.clientTaskId(e.taskId),
        status: toV01Status(e.status),
        final: isTerminal(e.status.state) || isInterrupted(e.status.state),
        metadata: e.metadata,
      });
    }
    const e = response.artifactUpdate;
    return compact({
      id: this.clientTaskId(e.taskId),
      artifact: this.artifact(e.artifact, { append: e.append, lastChunk: e.lastChunk }),
      metadata: e.metadata,
    });
  }
}
