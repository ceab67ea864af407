import {
  type A2ALogger,
  applyTaskEvent,
  ConcurrentModificationError,
  copyTask,
  type PushConfigStore,
  type PushDeliveryStateStore,
  type StoredTask,
  type Task,
  type TaskEvent,
  type TaskEventRecord,
  type TaskOwner,
  type TaskPage,
  type TaskPushNotificationConfig,
  type TaskQuery,
  type TaskState,
  type TaskStore,
  viewTask,
} from '@a2a/core';
import { A2ALog, BoundedCache, instrumentStore, LogSubscription } from '@a2a/core/internal';
import pg from 'pg';
import { connectionError, storeError } from './errors.js';
import { LOG_FIELDS } from './log-fields.js';
import { migrate } from './migrate.js';
import { PgNotifier } from './notifier.js';
import { NotifyWatch } from './notify-watch.js';
import { decodeCursor, encodeCursor } from './page-token.js';
import { guardPoolErrors } from './pool-errors.js';
import { PgPushConfigs } from './push-configs.js';
import { fromKey, toKey } from './text-key.js';
import { WriteBatcher, type WriteBatcherOptions } from './write-batch.js';

export const EVENTS_CHANNEL = 'a2a_task_events';
/** Between a NOTIFY's `{seq}:{key}` and the record it carries. */
const RECORD_SEPARATOR = '\u0001';
/** PostgreSQL's NOTIFY payload limit is 8000 bytes. */
const MAX_NOTICE_BYTES = 7999;

/**
 * The wake-up of one appended event: `{seq}:{key}`, plus the record itself when it fits, so that subscribers on other
 * instances take it without reading the log (one read per subscriber per event was most of the cross-instance cost).
 */
function notice(seq: number, key: string, taskId: string, contextId: string, state: string, event: string): string {
  const head = `${seq}:${key}`;
  const full = `${head}${RECORD_SEPARATOR}{"taskId":${JSON.stringify(taskId)},"contextId":${JSON.stringify(contextId)},"seq":${seq},"state":"${state}","event":${event}}`;
  return full.length * 3 <= MAX_NOTICE_BYTES || Buffer.byteLength(full) <= MAX_NOTICE_BYTES ? full : head;
}

export interface PostgresTaskStoreOptions {
  /** A connection string, a pool config, or your own pool (then `close()` leaves it open). */
  connection: string | pg.PoolConfig | pg.Pool;
  /** Safety-net poll for subscribers when a NOTIFY is lost. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Tasks whose last written version is kept to skip a read before the next append. Default 10 000. */
  cacheSize?: number;
  /**
   * Where the background jobs' errors go (LISTEN connection lost, retention sweep failed), pino's shape:
   * `logger.error({ err, component: 'a2a/postgres' }, msg)`. Default: core's console logger.
   */
  logger?: A2ALogger;
  /** Errors of the background jobs (takes precedence over `logger`). */
  onError?: (error: unknown) => void;
  /**
   * Retention: finished tasks (COMPLETED, CANCELED, FAILED, REJECTED) untouched for `finishedTaskTtlMs` are deleted
   * with their event log and push configs, by a sweep every `intervalMs` (default 60 s) in batches of `batchSize`
   * (default 500). Off when absent. Safe with many instances (rows are claimed with SKIP LOCKED).
   */
  retention?: { finishedTaskTtlMs: number; intervalMs?: number; batchSize?: number };
  /** Group commit of concurrent writes (see {@link WriteBatcher}). */
  batching?: WriteBatcherOptions;
}

const SWEEP_SQL = `
DELETE FROM a2a_tasks WHERE id IN (
  SELECT id FROM a2a_tasks
   WHERE state IN ('TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', 'TASK_STATE_FAILED', 'TASK_STATE_REJECTED')
     AND updated_at < now() - $1 * interval '1 millisecond'
   ORDER BY updated_at
   LIMIT $2
   FOR UPDATE SKIP LOCKED)`;

/** Delivery progress of one push config: core's own type, re-exported for this package's users. */
export type { PushDeliveryState } from '@a2a/core';

interface Current {
  task: Task;
  version: number;
}

interface TaskRow {
  task: Task;
  version: string;
  /** The log's events after the version `task` is at (none when it is current). */
  tail: TaskEvent[] | null;
}

/**
 * Snapshots: a status change always rewrites `task` (so finished and waiting tasks, most reads, are current), other
 * events only every SNAPSHOT_EVERY versions: a stream of N chunks writes its task N/16 times, not N (the task grows
 * with every chunk, so that was quadratic in bytes). Readers apply at most 15 logged events (TAIL_SQL). The row's
 * other columns (state, timestamp, version) are written on every append. See docs/performance.md, "Scale".
 */
const SNAPSHOT_EVERY = 16;
const TAIL_SQL = `CASE WHEN t.snapshot_version IS NOT NULL THEN (SELECT json_agg(e.event ORDER BY e.seq)
  FROM a2a_task_events e WHERE e.task_id = t.id AND e.seq > t.snapshot_version AND e.seq <= t.version) END AS tail`;

/** The task of a row: its snapshot with the logged events after it applied. */
function withTail(row: { task: Task; tail: TaskEvent[] | null }): Task {
  for (const event of row.tail ?? []) applyTaskEvent(row.task, event);
  return row.task;
}

/**
 * Tasks, event logs and push configs in PostgreSQL, shared by any number of instances. Every append is a
 * version-checked UPDATE of the task row, the INSERT of the event with `seq` = the new version, and a NOTIFY
 * `{seq}:{taskId}` delivered on commit, in one statement: the one of its batch (concurrent writes share a round trip
 * and a commit, see {@link WriteBatcher}). Subscribers read the log from their cursor, woken by NOTIFY on
 * every instance and by a short poll; so they see every event once, in order, whichever instance wrote it.
 */
/** The calls traced as `TaskStore.<name>` spans. */
const STORE_CALLS = [
  'create',
  'createWith',
  'get',
  'append',
  'list',
  'readEvents',
  'savePushConfig',
  'getPushConfig',
  'listPushConfigs',
  'deletePushConfig',
  'ping',
] as const;

export class PostgresTaskStore implements TaskStore, PushConfigStore {
  readonly pool: pg.Pool;
  /** Task, event and lease writes, batched: many concurrent writes share one round trip and one commit. */
  readonly writes: WriteBatcher;
  private readonly ownsPool: boolean;
  private readonly cache: BoundedCache<string, Current>;
  private readonly subscribers = new Map<string, Set<LogSubscription>>();
  /** Open around each `get`, so the subscription that follows it can skip its first read (see NotifyWatch). */
  private readonly watches = new Map<string, NotifyWatch>();
  private readonly notifier: PgNotifier;
  /** The background jobs' errors: `onError`, else `logger`. */
  private readonly log: A2ALog;
  private readonly pollTimer: ReturnType<typeof setInterval>;
  private readonly sweepTimer: ReturnType<typeof setInterval> | undefined;
  private readonly retention: PostgresTaskStoreOptions['retention'];
  /** LISTEN channels; read when the notification connection (re)connects. */
  private readonly handlers: Record<string, (payload: string) => void> = { [EVENTS_CHANNEL]: (p) => this.onNotify(p) };
  private started: Promise<void> | undefined;
  /** Push configs and delivery state, through {@link query} (read at each call). */
  private readonly pushConfigs = new PgPushConfigs((text, values) => this.query(text, values));

  constructor(options: PostgresTaskStoreOptions) {
    const { connection } = options;
    this.ownsPool = !(connection instanceof pg.Pool);
    this.pool =
      connection instanceof pg.Pool
        ? connection
        : new pg.Pool({
            connectionTimeoutMillis: 5000,
            max: 20,
            ...(typeof connection === 'string' ? { connectionString: connection } : connection),
          });
    this.log = new A2ALog(options.logger, options.onError);
    guardPoolErrors(this.pool);
    this.writes = new WriteBatcher(this.pool, EVENTS_CHANNEL, options.batching);
    this.cache = new BoundedCache({ max: options.cacheSize ?? 10_000 });
    const listenConfig = (this.pool as unknown as { options: pg.ClientConfig }).options;
    this.notifier = new PgNotifier(
      listenConfig,
      this.handlers,
      () => this.wakeAll(),
      (e) => this.log.error(e, LOG_FIELDS, 'LISTEN connection lost (reconnecting)'),
    );
    this.pollTimer = setInterval(() => void this.poll(), options.pollIntervalMs ?? 1000);
    this.pollTimer.unref?.();
    this.retention = options.retention;
    if (this.retention) {
      this.sweepTimer = setInterval(
        () => void this.sweep().catch((e) => this.log.error(e, LOG_FIELDS, 'retention sweep failed')),
        this.retention.intervalMs ?? 60_000,
      );
      this.sweepTimer.unref?.();
    }
    // Spans and `a2a.store.operation.duration` per call when an OpenTelemetry SDK is registered (else one check).
    instrumentStore(this, 'postgresql', STORE_CALLS);
  }

  /** One round trip: the readiness route's check (`health` in createA2AHandler). */
  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  /**
   * Deletes finished tasks older than the retention TTL (with their events and push configs, by cascade), batch by
   * batch until none is left; returns how many went. Runs by itself when `retention` is set.
   */
  async sweep(): Promise<number> {
    if (!this.retention) return 0;
    const batch = this.retention.batchSize ?? 500;
    let total = 0;
    for (;;) {
      const { rowCount } = await this.query(SWEEP_SQL, [this.retention.finishedTaskTtlMs, batch]);
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < batch) return total;
    }
  }

  /** Connects (clear error when the database is down), applies migrations and starts listening. */
  static async connect(options: PostgresTaskStoreOptions & { migrate?: boolean }): Promise<PostgresTaskStore> {
    const store = new PostgresTaskStore(options);
    try {
      if (options.migrate !== false) await migrate(store.pool);
      await store.start();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Starts the LISTEN connection (idempotent). Other channels must be registered with {@link listen} before. */
  start(): Promise<void> {
    this.started ??= this.notifier.start().catch((error) => {
      this.started = undefined;
      throw connectionError(error, this.pool);
    });
    return this.started;
  }

  /** Adds a LISTEN channel on the shared notification connection (call before {@link start}). */
  listen(channel: string, handler: (payload: string) => void): void {
    this.handlers[channel] = handler;
  }

  async close(): Promise<void> {
    clearInterval(this.pollTimer);
    clearInterval(this.sweepTimer);
    for (const set of this.subscribers.values()) for (const sub of set) void sub.return();
    await this.notifier.close();
    await this.writes.flush();
    if (this.ownsPool) await this.pool.end().catch(() => {});
  }

  /** Runs a query; a lost or refused connection becomes A2A `Unavailable` (503). */
  async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values);
    } catch (error) {
      throw storeError(error);
    }
  }

  async create(task: Task, owner: TaskOwner): Promise<StoredTask> {
    await this.insert(task, owner, task, undefined);
    this.cache.set(task.id, { task: copyTask(task), version: 1 });
    return { task: copyTask(task), version: 1 };
  }

  /** The task and its first event (seq 2) in one write. */
  async createWith(
    task: Task,
    owner: TaskOwner,
    event: TaskEvent,
  ): Promise<{ stored: StoredTask; record: TaskEventRecord }> {
    const next = copyTask(task);
    applyTaskEvent(next, event); // throws on an illegal change: nothing is written
    await this.insert(task, owner, next, event);
    this.cache.set(task.id, { task: next, version: 2 });
    const record: TaskEventRecord = {
      taskId: task.id,
      contextId: task.contextId,
      seq: 2,
      event,
      state: next.status.state,
    };
    return { stored: { task: copyTask(task), version: 1 }, record };
  }

  /** The task at `version` when this process wrote that version last (the write-through cache). */
  peek(taskId: string, version: number): StoredTask | undefined {
    const current = this.cache.get(taskId);
    return current?.version === version ? { task: copyTask(current.task), version } : undefined;
  }

  private async insert(task: Task, owner: TaskOwner, row: Task, event: TaskEvent | undefined): Promise<void> {
    const inserted = await this.writes.create({
      id: toKey(task.id),
      owner: toKey(owner),
      contextId: toKey(task.contextId),
      state: row.status.state,
      timestamp: row.status.timestamp ?? '',
      task: JSON.stringify(row),
      event: event && { kind: event.kind, state: row.status.state, event: JSON.stringify(event) },
    });
    if (!inserted) throw new Error(`Task ${task.id} already exists`);
  }

  async get(taskId: string, owner?: TaskOwner): Promise<StoredTask | undefined> {
    const key = toKey(taskId);
    const watch = this.openWatch(key);
    try {
      const { rows } =
        owner === undefined
          ? await this.query<TaskRow>(`SELECT task, version, ${TAIL_SQL} FROM a2a_tasks t WHERE id = $1`, [key])
          : await this.query<TaskRow>(
              `SELECT task, version, ${TAIL_SQL} FROM a2a_tasks t WHERE id = $1 AND owner = $2`,
              [key, toKey(owner)],
            );
      const row = rows[0];
      if (row) watch.read(Number(row.version));
      return row && { task: withTail(row), version: Number(row.version) };
    } finally {
      // Closed on the next turn: the caller subscribes in this one (after its awaits on this promise).
      setImmediate(() => this.closeWatch(key, watch));
    }
  }

  private openWatch(key: string): NotifyWatch {
    let watch = this.watches.get(key);
    if (!watch) {
      watch = new NotifyWatch(this.notifier.listening);
      this.watches.set(key, watch);
    }
    watch.refs++;
    return watch;
  }

  private closeWatch(key: string, watch: NotifyWatch): void {
    if (--watch.refs === 0 && this.watches.get(key) === watch) this.watches.delete(key);
  }

  async append(taskId: string, expectedVersion: number, event: TaskEvent): Promise<TaskEventRecord> {
    let current = this.cache.get(taskId);
    if (current?.version !== expectedVersion) {
      const stored = await this.get(taskId);
      if (!stored) throw new Error(`Task ${taskId} does not exist`);
      current = stored;
      this.cache.set(taskId, current);
    }
    if (current.version !== expectedVersion)
      throw new ConcurrentModificationError(taskId, expectedVersion, current.version);
    const task = copyTask(current.task);
    applyTaskEvent(task, event); // throws on an illegal change: nothing is written
    const seq = expectedVersion + 1;
    const key = toKey(taskId);
    const eventJson = JSON.stringify(event);
    const written = await this.writes.append({
      id: key,
      expectedVersion,
      task: event.kind === 'status' || seq % SNAPSHOT_EVERY === 0 ? JSON.stringify(task) : null,
      state: task.status.state,
      timestamp: task.status.timestamp ?? '',
      bumpListSeq: event.kind === 'status',
      kind: event.kind,
      event: eventJson,
      notice: notice(seq, key, taskId, task.contextId, task.status.state, eventJson),
    });
    if (!written) {
      this.cache.delete(taskId);
      const stored = await this.get(taskId);
      if (!stored) throw new Error(`Task ${taskId} does not exist`);
      this.cache.set(taskId, stored); // the writer retries on this version: no second read
      throw new ConcurrentModificationError(taskId, expectedVersion, stored.version);
    }
    this.cache.set(taskId, { task, version: seq });
    const record: TaskEventRecord = { taskId, contextId: task.contextId, seq, event, state: task.status.state };
    const local = this.subscribers.get(key);
    if (local) for (const sub of local) sub.offer(record);
    this.watches.get(key)?.add(record);
    return record;
  }

  async list(owner: TaskOwner, query: TaskQuery): Promise<TaskPage> {
    const cursor = query.pageToken ? decodeCursor(query.pageToken) : undefined;
    const where = ['owner = $1'];
    const values: unknown[] = [toKey(owner)];
    if (query.contextId !== undefined) where.push(`context_id = $${values.push(toKey(query.contextId))}`);
    if (query.status !== undefined) where.push(`state = $${values.push(query.status)}`);
    if (query.statusTimestampAfter !== undefined)
      where.push(`status_timestamp >= $${values.push(query.statusTimestampAfter)}`);
    const filter = where.join(' AND ');
    const pageValues = [...values, cursor ?? null, query.pageSize + 1];
    const n = values.length;
    const [count, page] = await Promise.all([
      this.query<{ count: string }>(`SELECT count(*) FROM a2a_tasks WHERE ${filter}`, values),
      this.query<{ task: Task; tail: TaskEvent[] | null; list_seq: string }>(
        `SELECT task, list_seq, ${TAIL_SQL} FROM a2a_tasks t WHERE ${filter} AND ($${n + 1}::bigint IS NULL OR list_seq < $${n + 1})
         ORDER BY list_seq DESC LIMIT $${n + 2}`,
        pageValues,
      ),
    ]);
    const rows = page.rows.slice(0, query.pageSize);
    const last = rows[rows.length - 1];
    return {
      tasks: rows.map((r) =>
        viewTask(withTail(r), { historyLength: query.historyLength, includeArtifacts: query.includeArtifacts }),
      ),
      totalSize: Number(count.rows[0]?.count ?? 0),
      nextPageToken: page.rows.length > query.pageSize && last ? encodeCursor(Number(last.list_seq)) : '',
    };
  }

  async readEvents(taskId: string, afterSeq: number): Promise<TaskEventRecord[]> {
    return (await this.readLog(taskId, afterSeq, null)) ?? [];
  }

  subscribe(taskId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<TaskEventRecord> {
    const key = toKey(taskId);
    let set = this.subscribers.get(key);
    if (!set) {
      set = new Set();
      this.subscribers.set(key, set);
    }
    const subscription = new LogSubscription(
      taskId,
      afterSeq,
      { read: (id, after, limit) => this.readLog(id, after, limit) },
      (sub) => {
        const current = this.subscribers.get(key);
        current?.delete(sub);
        if (current?.size === 0) this.subscribers.delete(key);
      },
      signal,
      this.watches.get(key)?.after(afterSeq),
    );
    set.add(subscription);
    return subscription;
  }

  /** Number of live subscriptions (tests check that streams release theirs). */
  get subscriptionCount(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  // Push notification configs and their delivery state: in push-configs.ts, under the names core calls.

  async savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    await this.pushConfigs.save(config);
  }

  async getPushConfig(taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
    return this.pushConfigs.get(taskId, id);
  }

  async listPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    return this.pushConfigs.list(taskId);
  }

  async deletePushConfig(taskId: string, id: string): Promise<void> {
    await this.pushConfigs.delete(taskId, id);
  }

  /** Push delivery state (core's `PushDeliveryStateStore`): `undefined` until the sender first records progress. */
  readonly deliveryState: PushDeliveryStateStore = this.pushConfigs.deliveryState;

  /** Tasks with an enabled push config behind the log: what a sender resumes after a restart (`watch(taskId)`). */
  pendingPushTasks(limit = 1000): Promise<string[]> {
    return this.pushConfigs.pendingTasks(limit);
  }

  private async readLog(
    taskId: string,
    afterSeq: number,
    limit: number | null,
  ): Promise<TaskEventRecord[] | undefined> {
    const { rows } = await this.query<{ context_id: string; seq: string | null; state: TaskState; event: TaskEvent }>(
      `SELECT t.context_id, e.seq, e.state, e.event FROM a2a_tasks t
         LEFT JOIN a2a_task_events e ON e.task_id = t.id AND e.seq > $2
        WHERE t.id = $1 ORDER BY e.seq LIMIT $3`,
      [toKey(taskId), afterSeq, limit],
    );
    if (rows.length === 0) return undefined;
    const records: TaskEventRecord[] = [];
    for (const row of rows) {
      if (row.seq === null) continue;
      // The column holds the escaped key (text-key.ts); the record carries the real context id.
      records.push({
        taskId,
        contextId: fromKey(row.context_id),
        seq: Number(row.seq),
        event: row.event,
        state: row.state,
      });
    }
    return records;
  }

  /** `{seq}:{key}`, with the record after a `\u0001` when it fit: then subscribers here need no read. */
  private onNotify(payload: string): void {
    const colon = payload.indexOf(':');
    const split = payload.indexOf(RECORD_SEPARATOR, colon);
    const key = payload.slice(colon + 1, split < 0 ? undefined : split);
    const set = this.subscribers.get(key);
    const watch = this.watches.get(key);
    if (!set && !watch) return; // (most notifications on a busy cluster: nothing parsed for them)
    const seq = Number(payload.slice(0, colon));
    let record: TaskEventRecord | undefined;
    if (split >= 0) {
      try {
        record = JSON.parse(payload.slice(split + 1)) as TaskEventRecord;
      } catch {}
    }
    const carried = record?.seq === seq && record.taskId === fromKey(key) ? record : undefined;
    watch?.add(carried);
    for (const sub of set ?? []) {
      if (carried) sub.offer(carried);
      else sub.wake(seq);
    }
  }

  /** After the LISTEN connection was lost: notifications may be missing, so readers go to the log. */
  private wakeAll(): void {
    for (const set of this.subscribers.values()) for (const sub of set) sub.wake();
    for (const watch of this.watches.values()) watch.break();
  }

  /** The safety net: one query for all subscribed tasks, waking those whose task moved past their cursor. */
  private async poll(): Promise<void> {
    if (this.subscribers.size === 0) return;
    try {
      const ids = [...this.subscribers.keys()];
      const { rows } = await this.pool.query<{ id: string; version: string }>(
        'SELECT id, version FROM a2a_tasks WHERE id = ANY($1)',
        [ids],
      );
      const versions = new Map(rows.map((r) => [r.id, Number(r.version)]));
      for (const [id, set] of this.subscribers) {
        const version = versions.get(id);
        for (const sub of set) sub.wake(version ?? Number.POSITIVE_INFINITY);
      }
    } catch {
      this.wakeAll(); // unreachable database: let readers retry (and end when it is back)
    }
  }
}
