// The objects of `@a2a-js/sdk` 1.x are ts-proto messages (numeric enums, `content.$case` parts, `Buffer` bytes); ours
// are their ProtoJSON form. The SDK's own generated codecs translate both ways, so nothing here restates the proto.
import type { AgentCard as CoreCard, Message, Task, TaskPushNotificationConfig } from '@a2a/core';
import * as sdk from '@a2a-js/sdk';
import type { AgentExecutionEvent } from '@a2a-js/sdk/server';
import type { CompatEvent, EventApplier } from './event-applier.js';

export const toSdkMessage = (message: Message): sdk.Message => sdk.Message.fromJSON(message);
export const toSdkTask = (task: Task): sdk.Task => sdk.Task.fromJSON(task);
export const toSdkCard = (card: CoreCard): sdk.AgentCard => sdk.AgentCard.fromJSON(card);
export const fromSdkCard = (card: sdk.AgentCard): CoreCard => sdk.AgentCard.toJSON(card) as CoreCard;
export const toSdkPushConfig = (config: TaskPushNotificationConfig): sdk.TaskPushNotificationConfig =>
  sdk.TaskPushNotificationConfig.fromJSON(config);
export const fromSdkPushConfig = (config: sdk.TaskPushNotificationConfig): TaskPushNotificationConfig =>
  sdk.TaskPushNotificationConfig.toJSON(config) as TaskPushNotificationConfig;

/**
 * One published event, handed to the applier. A plain `Task`, a bare status update and a plain text artifact chunk
 * (all of the bench's events) go straight into the applier's calls, with no event object between (`fromSdkEvent`
 * builds one, then the applier takes it apart); anything else is translated by `fromSdkEvent`. Everything is read
 * before the applier is called, so an event whose fields throw is read again, once, by `fromSdkEvent`.
 * docs/performance.md, "SDK executors…", fifth and sixth rounds.
 */
export function applySdkEvent(event: AgentExecutionEvent, applier: EventApplier): void {
  const kind = (event as { kind?: unknown } | null)?.kind;
  if (kind === 'statusUpdate' || kind === 'artifactUpdate' || kind === 'task') {
    const data = (event as { data?: unknown }).data;
    let taskId: string | undefined;
    let state: Task['status']['state'] | undefined;
    let chunk: PlainArtifact | undefined;
    let chunks: PlainArtifact[] | undefined | null = null;
    try {
      if (kind === 'statusUpdate') {
        const update = data as sdk.TaskStatusUpdateEvent;
        if (isBareStatusUpdate(update)) {
          taskId = update.taskId;
          state = sdk.taskStateToJSON(update.status.state) as Task['status']['state'];
        }
      } else if (kind === 'artifactUpdate') {
        const update = data as sdk.TaskArtifactUpdateEvent;
        if (isPlainChunkUpdate(update)) {
          chunk = fastArtifact(update.artifact);
          if (chunk) {
            taskId = update.taskId;
            if (update.append) chunk.append = true;
            if (update.lastChunk) chunk.lastChunk = true;
          }
        }
      } else if (isPlainTask(data as sdk.Task)) {
        const task = data as sdk.Task & { status: sdk.TaskStatus };
        chunks = plainArtifacts(task.artifacts);
        if (chunks !== null) {
          taskId = task.id;
          state = sdk.taskStateToJSON(task.status.state) as Task['status']['state'];
        }
      }
    } catch {
      // (Read again below, where a throwing event becomes an unreadable one.)
      taskId = undefined;
    }
    if (taskId !== undefined) {
      if (chunk) applier.applyChunk(taskId, chunk);
      else if (chunks !== null) applier.applyPlainTask(taskId, state as Task['status']['state'], chunks);
      else applier.applyBareStatus(taskId, state as Task['status']['state']);
      return;
    }
  }
  applier.apply(fromSdkEvent(event));
}

/**
 * One published event, as v1.0 objects; anything unreadable becomes `{ kind: 'invalid' }`. As the 1.x SDK's
 * ResultManager does, an update's metadata is also merged into the task's own (0.3.x keeps it on the event only).
 */
export function fromSdkEvent(event: AgentExecutionEvent): CompatEvent {
  const kind = (event as { kind?: unknown } | null)?.kind;
  const data = (event as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null)
    return { kind: 'invalid', reason: `an event of kind '${kind}' has no data` };
  try {
    switch (kind) {
      case 'message':
        return { kind: 'message', message: sdk.Message.toJSON(data as sdk.Message) as Message };
      case 'task':
        // Without its history: the history is the engine's to keep, and converting it is a message per event.
        return (
          fastTask(data as sdk.Task) ?? {
            kind: 'task',
            task: sdk.Task.toJSON(withoutHistory(data as sdk.Task)) as Task,
          }
        );
      case 'statusUpdate': {
        const fast = fastStatusUpdate(data as sdk.TaskStatusUpdateEvent);
        if (fast) return fast;
        const update = sdk.TaskStatusUpdateEvent.toJSON(data as sdk.TaskStatusUpdateEvent) as {
          taskId?: string;
          status?: Task['status'];
          metadata?: Record<string, unknown>;
        };
        if (!update.status?.state) return { kind: 'invalid', reason: 'a status update has no state' };
        const { taskId = '', status, metadata } = update;
        return { kind: 'status', taskId, status, metadata, taskMetadata: metadata };
      }
      case 'artifactUpdate': {
        const fast = fastArtifactUpdate(data as sdk.TaskArtifactUpdateEvent);
        if (fast) return fast;
        const update = sdk.TaskArtifactUpdateEvent.toJSON(data as sdk.TaskArtifactUpdateEvent) as {
          taskId?: string;
          artifact?: Task['artifacts'] extends (infer A)[] | undefined ? A : never;
          append?: boolean;
          lastChunk?: boolean;
          metadata?: Record<string, unknown>;
        };
        if (!update.artifact?.artifactId) return { kind: 'invalid', reason: 'an artifact update has no artifact id' };
        const { taskId = '', artifact, append, lastChunk, metadata } = update;
        return { kind: 'artifact', taskId, artifact, append, lastChunk, metadata, taskMetadata: metadata };
      }
      default:
        return { kind: 'invalid', reason: `unknown event kind '${String(kind)}'` };
    }
  } catch (error) {
    return { kind: 'invalid', reason: `a '${String(kind)}' event could not be read (${(error as Error).message})` };
  }
}

// Fast paths for the events nearly every executor publishes: a task and a status update without a message or
// metadata, an artifact chunk of plain text parts. They build what the SDK's `toJSON` builds for those shapes
// (sdk-codec.test.ts compares the two) without its generic walk; anything else takes `toJSON`. docs/performance.md,
// "SDK executors through @a2a/sdk-compat".

/** A status update without a message or metadata. */
function isBareStatusUpdate(
  update: sdk.TaskStatusUpdateEvent | null | undefined,
): update is sdk.TaskStatusUpdateEvent & { status: sdk.TaskStatus } {
  if (typeof update !== 'object' || update === null) return false;
  const status = update.status;
  if (!status || typeof status.state !== 'number' || status.state <= 0 || status.message !== undefined) return false;
  return update.metadata === undefined && typeof update.taskId === 'string';
}

/** An artifact update without metadata (its artifact is checked by `fastArtifact`). */
function isPlainChunkUpdate(update: sdk.TaskArtifactUpdateEvent | null | undefined): boolean {
  return (
    typeof update === 'object' && update !== null && update.metadata === undefined && typeof update.taskId === 'string'
  );
}

function fastStatusUpdate(update: sdk.TaskStatusUpdateEvent): CompatEvent | undefined {
  if (!isBareStatusUpdate(update)) return undefined;
  const converted = fastStatus(update.status);
  return { kind: 'status', taskId: update.taskId, status: converted, metadata: undefined, taskMetadata: undefined };
}

/** The task's fields but its history, field by field (a spread costs a fresh hidden class per event on Node 20). */
function withoutHistory(task: sdk.Task): sdk.Task {
  return {
    id: task.id,
    contextId: task.contextId,
    status: task.status,
    artifacts: task.artifacts,
    history: [],
    metadata: task.metadata,
  };
}

/** A `Task` event without metadata or a status message (its artifacts are checked by `plainArtifacts`). */
function isPlainTask(task: sdk.Task | null | undefined): task is sdk.Task & { status: sdk.TaskStatus } {
  if (typeof task !== 'object' || task === null) return false;
  const status = task.status;
  if (!status || typeof status.state !== 'number' || status.state <= 0 || status.message !== undefined) return false;
  return task.metadata === undefined && typeof task.id === 'string' && typeof task.contextId === 'string';
}

/** A task's artifacts as chunks if all are plain text (`undefined` for none), else `null`. */
function plainArtifacts(artifacts: sdk.Artifact[] | undefined): PlainArtifact[] | undefined | null {
  if (!artifacts?.length) return undefined;
  if (!Array.isArray(artifacts)) return null;
  // Sized as it is filled (not grown by `push`, see `textParts`); a hole left only when it is dropped.
  const out = new Array<PlainArtifact>(artifacts.length);
  for (let i = 0; i < artifacts.length; i++) {
    const fast = fastArtifact(artifacts[i]);
    if (!fast) return null;
    out[i] = fast;
  }
  return out;
}

/** A `Task` event without metadata or a status message, its artifacts of plain text (how most executors start one). */
function fastTask(task: sdk.Task): CompatEvent | undefined {
  if (!isPlainTask(task)) return undefined;
  const artifacts = plainArtifacts(task.artifacts);
  if (artifacts === null) return undefined;
  const converted = { status: fastStatus(task.status) } as Task;
  if (task.id !== '') converted.id = task.id;
  if (task.contextId !== '') converted.contextId = task.contextId;
  if (artifacts) converted.artifacts = artifacts;
  return { kind: 'task', task: converted };
}

function fastStatus(status: sdk.TaskStatus): Task['status'] {
  const converted: Task['status'] = { state: sdk.taskStateToJSON(status.state) as Task['status']['state'] };
  if (typeof status.timestamp === 'string') converted.timestamp = status.timestamp;
  return converted;
}

/** Both an artifact and the chunk of an update (with its flags). */
interface PlainArtifact {
  artifactId: string;
  parts: Message['parts'];
  name?: string;
  description?: string;
  append?: boolean;
  lastChunk?: boolean;
}

/** An artifact of plain text parts without metadata or extensions, or `undefined` (also the chunk its update makes). */
function fastArtifact(artifact: sdk.Artifact | undefined): PlainArtifact | undefined {
  if (!artifact?.artifactId || typeof artifact.artifactId !== 'string') return undefined;
  if (artifact.metadata !== undefined || artifact.extensions?.length || !Array.isArray(artifact.parts))
    return undefined;
  const parts = textParts(artifact.parts);
  if (!parts) return undefined;
  // From `{}`: room for four fields in the object itself, where a two-field literal grown by `name` and the update's
  // flags carries a separate property array (as core's `artifact`; docs/performance.md, "Hot-path tricks").
  const converted = {} as PlainArtifact;
  converted.artifactId = artifact.artifactId;
  converted.parts = parts;
  if (artifact.name) converted.name = artifact.name;
  if (artifact.description) converted.description = artifact.description;
  return converted;
}

function fastArtifactUpdate(update: sdk.TaskArtifactUpdateEvent): CompatEvent | undefined {
  if (!isPlainChunkUpdate(update)) return undefined;
  const converted = fastArtifact(update.artifact);
  if (!converted) return undefined;
  const event: Extract<CompatEvent, { kind: 'artifact' }> = {
    kind: 'artifact',
    taskId: update.taskId,
    artifact: converted,
  };
  if (update.append) event.append = true;
  if (update.lastChunk) event.lastChunk = true;
  return event;
}

/**
 * Plain text parts (a text, maybe a media type and a file name), or `undefined` for anything else. Checked first, then
 * converted with `map`: an array grown by `push` from `[]` reserves 17 slots (~130 B more per chunk than one part
 * needs). docs/performance.md, "SDK executors…", sixth round.
 */
function textParts(parts: sdk.Part[]): Message['parts'] | undefined {
  for (const part of parts) {
    const content = part?.content;
    if (content?.$case !== 'text' || typeof content.value !== 'string' || part.metadata !== undefined) return undefined;
  }
  return parts.map(textPart);
}

function textPart(part: sdk.Part): Message['parts'][number] {
  const converted: Message['parts'][number] = { text: (part.content as { value: string }).value };
  if (part.filename) converted.filename = part.filename;
  if (part.mediaType) converted.mediaType = part.mediaType;
  return converted;
}
