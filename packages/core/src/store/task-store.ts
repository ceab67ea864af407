import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { Task, TaskState } from '../schemas/task.js';
import type { TaskEvent } from '../task-state.js';

/**
 * Who a task belongs to. Every read is scoped by it, so another caller's task is simply "not found".
 * `undefined` is the engine's own unscoped access (never used for client requests).
 */
export type TaskOwner = string;

export interface StoredTask {
  /** A copy: later events do not change it. */
  task: Task;
  /** Incremented by every event; equals the sequence number of the last event. Creation is version 1. */
  version: number;
}

/** One entry of a task's ordered event log. `seq` is the task version the event produced. */
export interface TaskEventRecord {
  taskId: string;
  contextId: string;
  seq: number;
  event: TaskEvent;
  /** The task's state after the event. */
  state: TaskState;
}

export interface TaskQuery {
  contextId?: string | undefined;
  status?: TaskState | undefined;
  /** Inclusive, RFC 3339 UTC. */
  statusTimestampAfter?: string | undefined;
  pageSize: number;
  pageToken?: string | undefined;
  historyLength?: number | undefined;
  includeArtifacts?: boolean | undefined;
}

export interface TaskPage {
  tasks: Task[];
  totalSize: number;
  /** "" on the last page. */
  nextPageToken: string;
}

/** Thrown by {@link TaskStore.append} when the task changed since the version the writer read. */
export class ConcurrentModificationError extends Error {
  constructor(
    readonly taskId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(`Task ${taskId} is at version ${actualVersion}, writer expected ${expectedVersion}`);
    this.name = 'ConcurrentModificationError';
  }
}

/** Thrown by {@link TaskStore.list} for a page token it did not issue. */
export class InvalidPageTokenError extends Error {
  constructor() {
    super('Invalid page token');
    this.name = 'InvalidPageTokenError';
  }
}

/**
 * Tasks, their ordered event logs and live subscriptions. The log is the source of truth: every change is an event
 * appended with the next sequence number after checking the version the writer read (optimistic concurrency), and
 * the task row is the fold of the log. A durable backend (PostgreSQL, Redis) implements the same contract and wakes
 * subscribers on other instances; callers do not change.
 */
export interface TaskStore {
  /** Stores a new task at version 1. */
  create(task: Task, owner: TaskOwner): Promise<StoredTask>;
  /** The task, or `undefined` when it does not exist or belongs to another owner. */
  get(taskId: string, owner?: TaskOwner): Promise<StoredTask | undefined>;
  /**
   * Applies the event (through the task state machine) and appends it to the log, iff the task is still at
   * `expectedVersion`. Returns the new version. Throws {@link ConcurrentModificationError} on a lost race and the state
   * machine's error for an illegal change; in both cases nothing is written.
   */
  append(taskId: string, expectedVersion: number, event: TaskEvent): Promise<TaskEventRecord>;
  /** Tasks of one owner, newest status first. Throws {@link InvalidPageTokenError}. */
  list(owner: TaskOwner, query: TaskQuery): Promise<TaskPage>;
  /** Log entries with `seq > afterSeq`, in order (may be compacted away for finished tasks). */
  readEvents(taskId: string, afterSeq: number): Promise<TaskEventRecord[]>;
  /**
   * Live events with `seq > afterSeq`, in order, without gaps or duplicates. Registration happens synchronously in
   * this call, so nothing appended after it returns can be missed. Ends when `signal` aborts, when the iterator's
   * `return()` is called (also while a `next()` is waiting: the engine closes streams of departed clients that way),
   * or when the task goes away.
   */
  subscribe(taskId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<TaskEventRecord>;
  /**
   * Resolves when the store can serve requests (a database: one round trip), rejects when it cannot. Optional; the
   * handler's readiness route (`health`) reports a store without it as reachable.
   */
  ping?(): Promise<void>;
  /**
   * Optional, for remote stores (one round trip instead of two): `create(task, owner)` then `append(task.id, 1, event)`,
   * as one write that stores both or neither. Throws like `create` and like `append` for an illegal change.
   */
  createWith?(task: Task, owner: TaskOwner, event: TaskEvent): Promise<{ stored: StoredTask; record: TaskEventRecord }>;
  /**
   * Optional: the task at exactly `version` when this process wrote that version and still holds it, else `undefined`
   * (the caller reads it with `get`). Saves the read after a write this process made (a remote store's round trip,
   * the in-memory store's copy and `await`). The engine copies the task at once and keeps nothing, so a store may hand
   * out its own object.
   */
  peek?(taskId: string, version: number): StoredTask | undefined;
}

/** Push notification configs, kept per task. */
export interface PushConfigStore {
  savePushConfig(config: TaskPushNotificationConfig): Promise<void>;
  getPushConfig(taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined>;
  listPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]>;
  /** Idempotent. */
  deletePushConfig(taskId: string, id: string): Promise<void>;
}
