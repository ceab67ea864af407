import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { Artifact, Task, TaskState } from '../schemas/task.js';
import { applyTaskEvent, copyTask, isTerminal, type TaskEvent, viewTask } from '../task-state.js';
import { AsyncQueue } from './async-queue.js';
import { BoundedCache } from './bounded-cache.js';
import { KeyedLists } from './keyed-lists.js';
import { ListOrder } from './list-order.js';
import { type LoggedChunk, logEntry, loggedEvent } from './logged-chunk.js';
import { decodePageToken, encodePageToken } from './page-token.js';
import {
  ConcurrentModificationError,
  type PushConfigStore,
  type StoredTask,
  type TaskEventRecord,
  type TaskOwner,
  type TaskPage,
  type TaskQuery,
  type TaskStore,
} from './task-store.js';

export interface InMemoryTaskStoreOptions {
  /** Most tasks kept; the least recently used is evicted first. Default 10 000. */
  maxTasks?: number;
  /** How long a finished task stays readable. Default 1 hour. */
  terminalTtlMs?: number;
  /**
   * Most recent events kept per live task, for clients resuming with `Last-Event-ID` (an older one gets the task
   * snapshot instead, which holds everything). Bounds the memory of a long stream. Default 16.
   */
  liveLogSize?: number;
}

const CREATE_OWNED = Symbol('a2a.createOwned');
const APPEND_NOW = Symbol('a2a.appendNow');

interface Entry {
  task: Task;
  owner: TaskOwner;
  version: number;
  /** Store-wide counter bumped on every status change: the ListTasks order and cursor. */
  listSeq: number;
  /**
   * The latest `liveLogSize` events of a live task, a ring of pairs: the event of sequence `s` at `2 × ((s − 2) %
   * liveLogSize)` (events are gap-free, one per version after the first) and the task's state after it in the next
   * slot. Not the records themselves: their wrappers (~64 B each) are rebuilt for the rare replay, and so are artifact
   * chunks ({@link LoggedChunk}). Made at the first event and grown by doubling to its full size, each time exactly
   * (an array written past its end grows by half plus 16 slots: two 20-slot arrays for a SendMessage's one logged
   * event before, issue 39, docs/performance.md "Per request"). Dropped when the task finishes (a finished task's
   * snapshot is the contract).
   */
  log: (TaskEvent | LoggedChunk | TaskState)[] | undefined;
  pushConfigs: Map<string, TaskPushNotificationConfig> | undefined;
}

/**
 * The zero-setup default: bounded (max tasks, TTL after finishing, LRU), events applied in place so the cost of an
 * event does not grow with the task, live subscribers fed directly.
 */
export class InMemoryTaskStore implements TaskStore, PushConfigStore {
  private readonly tasks: BoundedCache<string, Entry>;
  /** Per owner, the tasks in ascending `listSeq` (a status change moves a task to the end). */
  private readonly byOwner = new Map<TaskOwner, ListOrder<Entry>>();
  /** Per task, its live subscribers. */
  private readonly subscribers = new KeyedLists<string, AsyncQueue<TaskEventRecord>>();
  private readonly terminalTtlMs: number;
  private readonly liveLogSize: number;
  private listSeq = 0;
  private lastPurge = 0;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.terminalTtlMs = options.terminalTtlMs ?? 60 * 60 * 1000;
    this.liveLogSize = Math.max(1, options.liveLogSize ?? 16);
    this.tasks = new BoundedCache<string, Entry>({
      max: options.maxTasks ?? 10_000,
      // Re-setting a task (new TTL) stores the same entry again: that is no removal.
      onRemove: (entry, taskId) => this.forget(taskId, entry),
    });
  }

  /** Number of tasks held (for tests and memory figures). */
  get size(): number {
    return this.tasks.size;
  }

  async create(task: Task, owner: TaskOwner): Promise<StoredTask> {
    return { task: copyTask(this.insert(task, owner).task), version: 1 };
  }

  /** {@link create}'s work: stores a copy of `task` (or `task` itself, `keep`) at version 1 and returns the entry. */
  private insert(task: Task, owner: TaskOwner, keep = false): Entry {
    if (this.tasks.has(task.id)) throw new Error(`Task ${task.id} already exists`);
    this.purgeExpired();
    let index = this.byOwner.get(owner);
    if (!index) {
      index = new ListOrder<Entry>(owner);
      this.byOwner.set(owner, index);
    }
    const entry: Entry = {
      task: keep ? task : copyTask(task),
      owner: index.key, // one string per owner, not one per request
      version: 1,
      listSeq: ++this.listSeq,
      log: undefined,
      pushConfigs: undefined,
    };
    this.tasks.set(task.id, entry);
    index.add(entry);
    return entry;
  }

  /**
   * The engine's create (through {@link createOwned}): synchronous, and the answer is the caller's own `task`, which
   * the caller made for this and never changes, instead of a second copy (docs/performance.md, "Hot-path tricks").
   * `handOver`: the store keeps `task` itself, no copy at all; the caller then never reads it again, since the store
   * applies later events to it (issue 39, docs/performance.md "Bytes per SendMessage, twenty-second session").
   */
  [CREATE_OWNED](task: Task, owner: TaskOwner, handOver: boolean): StoredTask {
    this.insert(task, owner, handOver);
    return { task, version: 1 };
  }

  /** Always reachable. */
  async ping(): Promise<void> {}

  async get(taskId: string, owner?: TaskOwner): Promise<StoredTask | undefined> {
    const entry = this.lookup(taskId, owner);
    return entry && { task: copyTask(entry.task), version: entry.version };
  }

  /**
   * The task at exactly `version`, read synchronously: a blocking SendMessage answers with the version its execution
   * just wrote without one more `await` (docs/performance.md, "Hot-path tricks"). The stored object itself, not a
   * copy: the engine copies it at once (`viewTask`) into its answer; a caller must not change it or keep it.
   */
  peek(taskId: string, version: number): StoredTask | undefined {
    // (Its recency not moved again: the write it follows did.)
    const entry = this.tasks.peek(taskId);
    return entry?.version === version ? { task: entry.task, version } : undefined;
  }

  async append(taskId: string, expectedVersion: number, event: TaskEvent): Promise<TaskEventRecord> {
    return this[APPEND_NOW](taskId, expectedVersion, event);
  }

  /** {@link append}'s work, synchronous: the engine's path through {@link appendNow}. */
  [APPEND_NOW](taskId: string, expectedVersion: number, event: TaskEvent): TaskEventRecord {
    const entry = this.tasks.get(taskId);
    if (!entry) throw new Error(`Task ${taskId} does not exist`);
    if (entry.version !== expectedVersion)
      throw new ConcurrentModificationError(taskId, expectedVersion, entry.version);
    applyTaskEvent(entry.task, event); // throws before mutating on an illegal change
    const record: TaskEventRecord = {
      taskId,
      contextId: entry.task.contextId,
      seq: ++entry.version,
      event,
      state: entry.task.status.state,
    };
    if (event.kind === 'status') this.touch(entry);
    if (isTerminal(record.state)) {
      entry.log = undefined;
      entry.task = compact(entry.task);
      this.tasks.set(taskId, entry, this.terminalTtlMs);
    } else {
      // A ring, not a growing array trimmed now and then: exactly `liveLogSize` events held, no spare capacity.
      const at = this.logSlot(record.seq);
      let log = entry.log;
      if (log === undefined || at >= log.length) {
        const grown = new Array<TaskEvent | LoggedChunk | TaskState>(
          log === undefined ? 2 : Math.min(log.length * 2, this.liveLogSize * 2),
        );
        if (log !== undefined) for (let i = 0; i < log.length; i++) grown[i] = log[i] as TaskEvent;
        entry.log = log = grown;
      }
      log[at] = logEntry(event);
      log[at + 1] = record.state;
    }
    const subscribers = this.subscribers.get(taskId);
    if (subscribers) for (const queue of subscribers) queue.push(record);
    return record;
  }

  async list(owner: TaskOwner, query: TaskQuery): Promise<TaskPage> {
    const index = this.byOwner.get(owner);
    const cursor = query.pageToken ? decodePageToken('t', query.pageToken) : Number.POSITIVE_INFINITY;
    const empty: TaskPage = { tasks: [], totalSize: 0, nextPageToken: '' };
    if (!index) return empty;
    const filtered =
      query.contextId !== undefined || query.status !== undefined || query.statusTimestampAfter !== undefined;
    if (!filtered) return this.listAll(index, cursor, query);
    const page: Entry[] = [];
    let totalSize = 0;
    let more = false;
    for (const entry of index.newestFirst()) {
      const { task } = entry;
      if (query.contextId !== undefined && task.contextId !== query.contextId) continue;
      if (query.status !== undefined && task.status.state !== query.status) continue;
      if (query.statusTimestampAfter !== undefined && (task.status.timestamp ?? '') < query.statusTimestampAfter) {
        continue;
      }
      if (!this.tasks.has(task.id)) continue; // expired, not yet purged
      totalSize++;
      if (entry.listSeq >= cursor) continue;
      if (page.length < query.pageSize) page.push(entry);
      else more = true;
    }
    const last = page[page.length - 1];
    return {
      tasks: page.map((e) =>
        viewTask(e.task, { historyLength: query.historyLength, includeArtifacts: query.includeArtifacts }),
      ),
      totalSize,
      nextPageToken: more && last ? encodePageToken('t', last.listSeq) : '',
    };
  }

  /**
   * The unfiltered page (the common call) without a check per stored task: expired tasks are purged at most once a
   * second, so `totalSize` is the index size; only the page's own entries are checked for expiry.
   */
  private listAll(index: ListOrder<Entry>, cursor: number, query: TaskQuery): TaskPage {
    this.purgeExpired();
    const page: Entry[] = [];
    let more = false;
    for (const entry of index.newestFirst(cursor)) {
      if (!this.tasks.has(entry.task.id)) continue;
      if (page.length === query.pageSize) {
        more = true;
        break;
      }
      page.push(entry);
    }
    const last = page[page.length - 1];
    return {
      tasks: page.map((e) =>
        viewTask(e.task, { historyLength: query.historyLength, includeArtifacts: query.includeArtifacts }),
      ),
      totalSize: index.size,
      nextPageToken: more && last ? encodePageToken('t', last.listSeq) : '',
    };
  }

  /**
   * Drops expired finished tasks, at most once a second: a purge walks every stored task (1–2 ms for 10 000), and
   * expired ones are already invisible to reads; this only frees their memory.
   */
  private purgeExpired(): void {
    const now = Date.now();
    if (now - this.lastPurge < 1000) return;
    this.lastPurge = now;
    this.tasks.purgeExpired();
  }

  async readEvents(taskId: string, afterSeq: number): Promise<TaskEventRecord[]> {
    const entry = this.tasks.get(taskId);
    return entry ? this.logged(entry, afterSeq) : [];
  }

  /** Where the event of sequence `seq` sits in a live log's ring (its state in the next slot): see `Entry.log`. */
  private logSlot(seq: number): number {
    return ((seq - 2) % this.liveLogSize) * 2;
  }

  /** The logged records after `afterSeq`, oldest first (those still in the ring; version 1 has none). */
  private logged(entry: Entry, afterSeq: number): TaskEventRecord[] {
    const { log, version, task } = entry;
    const out: TaskEventRecord[] = [];
    if (!log) return out;
    for (let seq = Math.max(afterSeq + 1, version - this.liveLogSize + 1, 2); seq <= version; seq++) {
      const at = this.logSlot(seq);
      const logged = log[at] as TaskEvent | LoggedChunk | undefined;
      const state = log[at + 1] as TaskState | undefined;
      if (logged && state)
        out.push({ taskId: task.id, contextId: task.contextId, seq, event: loggedEvent(logged), state });
    }
    return out;
  }

  /** The newest sequence number no longer in the ring (0: none; version 1, the creation, has no record). */
  private trimmed(entry: Entry): number {
    const trimmed = entry.version - this.liveLogSize;
    return trimmed > 1 ? trimmed : 0;
  }

  subscribe(taskId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<TaskEventRecord> {
    if (signal?.aborted) {
      // Ended before it starts: the queue would close (and unregister itself) inside its own constructor, and a closed
      // queue registered below would never be removed.
      const ended = new AsyncQueue<TaskEventRecord>();
      ended.end();
      return ended;
    }
    const entry = this.tasks.get(taskId);
    const queue = new AsyncQueue<TaskEventRecord>(() => this.subscribers.remove(taskId, queue), signal);
    if (!entry || afterSeq < this.trimmed(entry)) {
      // Gone, or the events right after `afterSeq` were trimmed (a subscriber that far behind cannot be fed without a
      // gap): ended, never gapped. The engine subscribes at the version it just read, within the window.
      queue.end();
      return queue;
    }
    for (const record of this.logged(entry, afterSeq)) queue.push(record);
    this.subscribers.add(taskId, queue);
    return queue;
  }

  async savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    const entry = this.tasks.get(config.taskId);
    if (!entry) throw new Error(`Task ${config.taskId} does not exist`);
    entry.pushConfigs ??= new Map();
    entry.pushConfigs.set(config.id, { ...config });
  }

  async getPushConfig(taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
    const config = this.tasks.get(taskId)?.pushConfigs?.get(id);
    return config && { ...config };
  }

  async listPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    return Array.from(this.tasks.get(taskId)?.pushConfigs?.values() ?? [], (c) => ({ ...c }));
  }

  async deletePushConfig(taskId: string, id: string): Promise<void> {
    this.tasks.get(taskId)?.pushConfigs?.delete(id);
  }

  private lookup(taskId: string, owner: TaskOwner | undefined): Entry | undefined {
    const entry = this.tasks.get(taskId);
    return entry && (owner === undefined || entry.owner === owner) ? entry : undefined;
  }

  private touch(entry: Entry): void {
    entry.listSeq = ++this.listSeq;
    this.byOwner.get(entry.owner)?.moved(entry);
  }

  private forget(taskId: string, entry: Entry): void {
    const index = this.byOwner.get(entry.owner);
    if (index && entry.listSeq !== -1) {
      index.remove(entry);
      if (index.size === 0) this.byOwner.delete(entry.owner);
    }
    const subscribers = this.subscribers.get(taskId);
    // A copy: an ended queue with nothing buffered removes itself from the array at once.
    if (subscribers) for (const queue of [...subscribers]) queue.end();
  }
}

const ownCreate = InMemoryTaskStore.prototype.create;

/**
 * `store.create(task, owner)` done synchronously when `store` is an in-memory store whose `create` is its own (a
 * subclass that overrides it, e.g. to fail in a test, goes the usual way): `undefined` when it cannot. `task` is
 * handed over: the answer's task is that object, so the caller must not change it afterwards. With `handOver` the
 * store keeps that very object and changes it with every later event: the caller must not read it afterwards either
 * (only its creation state, at once).
 */
export function createOwned(store: TaskStore, task: Task, owner: TaskOwner, handOver = false): StoredTask | undefined {
  return createsOwned(store) ? store[CREATE_OWNED](task, owner, handOver) : undefined;
}

/** Whether {@link createOwned} would create in `store` (asked before making the task, so none is made in vain). */
export const createsOwned = (store: TaskStore): store is InMemoryTaskStore =>
  store instanceof InMemoryTaskStore && store.create === ownCreate;

const ownAppend = InMemoryTaskStore.prototype.append;

/**
 * `store.append(...)` done synchronously when `store` is an in-memory store whose `append` is its own (throws as
 * `append` rejects); `undefined` when it cannot, and then nothing was written.
 */
export function appendNow(
  store: TaskStore,
  taskId: string,
  expectedVersion: number,
  event: TaskEvent,
): TaskEventRecord | undefined {
  return store instanceof InMemoryTaskStore && store.append === ownAppend
    ? store[APPEND_NOW](taskId, expectedVersion, event)
    : undefined;
}

/**
 * A finished task rebuilt at its final size: arrays grown by `push` keep spare capacity (17 slots for one item), and
 * fields added after creation live in a separate property array. Absent fields stay as `undefined` keys, which never
 * leave the store (reads go through copyTask/viewTask). A one-item array is kept as it is: the engine makes those at
 * their size (a literal or a copy; only a push makes room), so copying it again only allocates (~0.1 KB per
 * SendMessage, issue 39, docs/performance.md "Per request").
 */
function compact(task: Task): Task {
  const { artifacts, history } = task;
  return {
    id: task.id,
    contextId: task.contextId,
    status: task.status,
    artifacts:
      artifacts &&
      (artifacts.length === 1 && (artifacts[0] as Artifact).parts.length === 1
        ? artifacts
        : artifacts.map(compactArtifact)),
    history: history && (history.length === 1 ? history : history.slice()),
    metadata: task.metadata,
  };
}

const compactArtifact = (a: Artifact): Artifact => (a.parts.length > 1 ? { ...a, parts: a.parts.slice() } : a);
