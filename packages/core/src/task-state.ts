import { A2AError } from './errors.js';
import type { Message } from './schemas/message.js';
import type { Artifact, Task, TaskState, TaskStatus } from './schemas/task.js';

export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** The agent waits for the client (INPUT_REQUIRED) or for credentials (AUTH_REQUIRED). */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

export const isTerminal = (state: TaskState): boolean => TERMINAL_STATES.has(state);
export const isInterrupted = (state: TaskState): boolean => INTERRUPTED_STATES.has(state);

const ACTIVE_TARGETS: readonly TaskState[] = [
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/**
 * Legal transitions. A non-terminal state may repeat itself (a new status message while WORKING); an interrupted task
 * goes back to SUBMITTED/WORKING when the client answers; terminal states are final.
 */
const TRANSITIONS: Readonly<Record<TaskState, ReadonlySet<TaskState>>> = {
  TASK_STATE_SUBMITTED: new Set<TaskState>(['TASK_STATE_SUBMITTED', ...ACTIVE_TARGETS]),
  TASK_STATE_WORKING: new Set<TaskState>(ACTIVE_TARGETS),
  TASK_STATE_INPUT_REQUIRED: new Set<TaskState>(['TASK_STATE_SUBMITTED', ...ACTIVE_TARGETS]),
  TASK_STATE_AUTH_REQUIRED: new Set<TaskState>(['TASK_STATE_SUBMITTED', ...ACTIVE_TARGETS]),
  TASK_STATE_COMPLETED: new Set<TaskState>(),
  TASK_STATE_FAILED: new Set<TaskState>(),
  TASK_STATE_CANCELED: new Set<TaskState>(),
  TASK_STATE_REJECTED: new Set<TaskState>(),
};

export function canTransition(from: TaskState, to: TaskState): boolean {
  return TRANSITIONS[from].has(to);
}

/** Thrown when something tries to move a task along an edge the state machine does not have. */
export class InvalidTransitionError extends A2AError {
  readonly from: TaskState;
  readonly to: TaskState;
  constructor(taskId: string, from: TaskState, to: TaskState) {
    super('InvalidAgentResponse', `Illegal task state transition ${from} -> ${to} (task ${taskId})`, {
      metadata: { taskId, from, to },
    });
    this.from = from;
    this.to = to;
  }
}

/** One change to a task. Everything that ever changes a task is one of these, applied by {@link applyTaskEvent}. */
export type TaskEvent =
  | { kind: 'status'; status: TaskStatus; metadata?: Record<string, unknown> | undefined }
  | {
      kind: 'artifact';
      artifact: Artifact;
      append?: boolean | undefined;
      lastChunk?: boolean | undefined;
      metadata?: Record<string, unknown> | undefined;
    }
  /** A message added to the history (the client's messages; not streamed, it is already in the client's hands). */
  | { kind: 'history'; message: Message }
  /** Keys shallow-merged into the task's own `metadata` (`ctx.setMetadata`; not streamed: snapshots show it). */
  | { kind: 'metadata'; metadata: Record<string, unknown> };

/** A new task in SUBMITTED holding the message that created it. */
export function newTask(id: string, contextId: string, message: Message, timestamp: string): Task {
  return {
    id,
    contextId,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp },
    history: [{ ...message, taskId: id, contextId }],
  };
}

/**
 * Applies an event to a task **in place**: the cost is independent of the task's size (artifact chunks append to
 * the existing parts array; history appends). Callers that hand tasks out must copy ({@link copyTask}).
 * Throws {@link InvalidTransitionError} before touching anything when the status change is illegal.
 */
export function applyTaskEvent(task: Task, event: TaskEvent): void {
  switch (event.kind) {
    case 'status': {
      const from = task.status.state;
      if (!canTransition(from, event.status.state)) throw new InvalidTransitionError(task.id, from, event.status.state);
      task.status = event.status;
      // A status message is part of the conversation.
      if (event.status.message) {
        task.history ??= [];
        task.history.push(event.status.message);
      }
      return;
    }
    case 'artifact': {
      if (isTerminal(task.status.state)) {
        throw new A2AError('InvalidAgentResponse', `Task ${task.id} is ${task.status.state}; artifacts are final`, {
          metadata: { taskId: task.id },
        });
      }
      const incoming = event.artifact;
      const artifacts = task.artifacts;
      // A loop rather than `findIndex` (no closure and context per event), and a task's first artifact in a one-slot
      // array rather than pushed into `[]` (which grows it to 17 slots): ~0.2 KB per SendMessage (issue 39,
      // docs/performance.md "Per request").
      let index = -1;
      if (artifacts) {
        for (let i = 0; i < artifacts.length; i++) {
          if ((artifacts[i] as Artifact).artifactId === incoming.artifactId) {
            index = i;
            break;
          }
        }
      }
      const existing = index >= 0 ? artifacts?.[index] : undefined;
      if (event.append && existing) {
        existing.parts.push(...incoming.parts);
        if (incoming.name !== undefined) existing.name = incoming.name;
        if (incoming.description !== undefined) existing.description = incoming.description;
        if (incoming.metadata) existing.metadata = { ...existing.metadata, ...incoming.metadata };
        if (incoming.extensions) existing.extensions = incoming.extensions;
      } else {
        // Copy the parts array: later appends must not write into the caller's object.
        const stored = { ...incoming, parts: [...incoming.parts] };
        if (!artifacts) task.artifacts = [stored];
        else if (existing) artifacts[index] = stored;
        else artifacts.push(stored);
      }
      return;
    }
    case 'history': {
      if (isTerminal(task.status.state)) {
        throw new A2AError('UnsupportedOperation', `Task ${task.id} is ${task.status.state} and accepts no messages`, {
          metadata: { taskId: task.id },
        });
      }
      task.history ??= [];
      task.history.push(event.message);
      return;
    }
    case 'metadata': {
      if (isTerminal(task.status.state)) {
        throw new A2AError('InvalidAgentResponse', `Task ${task.id} is ${task.status.state}; its metadata is final`, {
          metadata: { taskId: task.id },
        });
      }
      // A new object, never written into: copies handed out (copyTask, viewTask) share the old one.
      task.metadata = { ...task.metadata, ...event.metadata };
      return;
    }
  }
}

/** A copy that later in-place events cannot reach (arrays copied one level deep). */
export function copyTask(task: Task): Task {
  // Field by field (one object shape) rather than a spread: tasks come in several shapes, which makes a spread copy
  // take V8's slow path.
  const out: Task = { id: task.id, contextId: task.contextId, status: task.status };
  if (task.artifacts) out.artifacts = task.artifacts.map(copyArtifact);
  if (task.history) out.history = task.history.slice();
  if (task.metadata) out.metadata = task.metadata;
  return out;
}

const copyArtifact = (a: Artifact): Artifact => ({ ...a, parts: a.parts.slice() });

/** The view of a task a client asked for: history trimmed to `historyLength`, artifacts dropped when excluded. */
export function viewTask(
  task: Task,
  options: { historyLength?: number | undefined; includeArtifacts?: boolean | undefined } = {},
): Task {
  const { historyLength, includeArtifacts = true } = options;
  const out: Task = { id: task.id, contextId: task.contextId, status: task.status };
  if (task.artifacts && includeArtifacts) out.artifacts = task.artifacts.map(copyArtifact);
  if (task.history && historyLength !== 0) {
    out.history = historyLength === undefined ? task.history.slice() : task.history.slice(-historyLength);
  }
  if (task.metadata) out.metadata = task.metadata;
  return out;
}
