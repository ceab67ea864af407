// Long on purpose: the store's two modes (standalone, and Redis Cluster: README, "Redis Cluster") share its keys,
// reads, cache and subscriptions, and each write path sits beside the other, so the two are read and changed together.
import {
  type A2ALogger,
  applyTaskEvent,
  ConcurrentModificationError,
  copyTask,
  isTerminal,
  type PushConfigStore,
  type PushDeliveryState,
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
import { A2ALog, BoundedCache, instrumentStore } from '@a2a/core/internal';
import { type Cluster, Redis, type RedisOptions } from 'ioredis';
import { clusterFromUrl } from './cluster-client.js';
import { indexEntry, markRunning, repairPage } from './cluster-mode.js';
import { CorkedBatches } from './corked-batches.js';
import { ClusterNodeError, clusterError, connectionError, isRedirection, storeError } from './errors.js';
import { KeySpace, type TaskKeys } from './keys.js';
import { LOG_FIELDS } from './log-fields.js';
import { LogSubscription } from './log-subscription.js';
import { decodeCursor, encodeCursor } from './page-token.js';
import { isDurableWrite, type ReplicaWait, runScriptReplicated } from './replica-wait.js';
import { defineScripts, type RedisClient, runScript, type ScriptName } from './scripts.js';
import { ShardTail } from './shard-tail.js';
import { entryRecord, type StreamEntry, StreamTail } from './stream-tail.js';

export interface RedisTaskStoreOptions {
  /** `redis://[[user]:password@]host:6379[/db]` (or `rediss://` for TLS). Default `redis://127.0.0.1:6379`. */
  url?: string;
  /**
   * Your own ioredis client instead of `url` (then `close()` leaves it open): a `Redis` (standalone Redis or Valkey)
   * or a `Cluster` (the Cluster mode). Its options then decide how a lost connection fails requests: ioredis's
   * defaults (`maxRetriesPerRequest: 20`, no `commandTimeout`) hold a request through many reconnect attempts instead
   * of answering 503 within seconds.
   */
  client?: Redis | Cluster;
  /**
   * Redis Cluster mode (README, "Redis Cluster"): per-slot scripts, the ListTasks index and running marks as steps of
   * their own, a sharded pub/sub stream tail. `createRedisTaskStore()` and `RedisTaskStore.connect()` choose it
   * themselves when `url` is a Cluster node (`INFO cluster`), and so does a `Cluster` as `client`; `false` refuses a
   * Cluster node instead.
   */
  cluster?: boolean;
  /** Further ioredis options for the connections this store opens from `url`. */
  redisOptions?: RedisOptions;
  /** Prefix of every key and channel. Default `a2a`: several agents share one Redis with different prefixes. */
  keyPrefix?: string;
  /**
   * How long a finished task (COMPLETED, CANCELED, FAILED, REJECTED) stays readable, with its event stream and push
   * configs: its keys get this TTL when it finishes. Default 7 days; `0` keeps finished tasks forever.
   */
  finishedTaskTtlMs?: number;
  /** Tasks whose last written version is kept to skip a read before the next append. Default 10 000. */
  cacheSize?: number;
  /** How long one cross-instance XREAD blocks before it is sent again. Default 5000 ms. */
  blockMs?: number;
  /**
   * A command without a reply for this long fails (as `Unavailable`), so requests answer while Redis is unreachable.
   * Default 5000 ms.
   */
  commandTimeoutMs?: number;
  /**
   * Acknowledge a write only once `replicas` replicas of its master confirmed it (WAIT, on the write's connection),
   * else fail it as `Unavailable` after `timeoutMs`: a failover then loses no acknowledged write (README,
   * "Durability"). Default: none (Redis replicates asynchronously; a master that dies can take its last writes along).
   */
  wait?: ReplicaWait;
  /**
   * Where the background errors go (the stream tail lost its connection), pino's shape:
   * `logger.error({ err, component: 'a2a/redis' }, msg)`. Default: core's console logger.
   */
  logger?: A2ALogger;
  /** Errors of the background jobs (takes precedence over `logger`). */
  onError?: (error: unknown) => void;
}

export const DEFAULT_FINISHED_TASK_TTL_MS = 7 * 24 * 3600 * 1000;
export const DEFAULT_URL = 'redis://127.0.0.1:6379';

/**
 * Snapshots: an append rewrites the task (`j`) only every SNAPSHOT_EVERY versions, whatever its event, so a stream of N
 * chunks writes its task N/16 times, not N (the task grows with every chunk), and a status change writes its event,
 * state and version but not the task: SendMessage's COMPLETED was its largest write (docs/performance.md, "Twenty-first
 * session"). Reads apply the events logged after the snapshot (at most 15); the hash's `s` and `ts` and the ListTasks
 * entry carry the status without it.
 */
const SNAPSHOT_EVERY = 16;
const READ_BATCH = 500;

interface Current {
  task: Task;
  version: number;
  owner: TaskOwner;
}

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

/** Reconnects quickly (an outage is noticed in about a second), capped at 1 s plus jitter. */
const retryStrategy = (times: number) => Math.min(50 * 2 ** Math.min(times, 5), 1000) + Math.floor(Math.random() * 100);

/**
 * Tasks, their event streams and push configs in Redis (7+) or Valkey (8+), shared by any number of instances. A
 * task is a hash (its snapshot, version and state) and a stream with one entry per event, id `<seq>-0`; an append is
 * one Lua script that checks the version, adds the entry and updates the hash. Subscribers read the stream from their
 * cursor; one XREAD BLOCK per instance tails the streams its subscribers follow (see {@link StreamTail}), so every
 * instance sees every event once, in order, whichever instance wrote it.
 */
export class RedisTaskStore implements TaskStore, PushConfigStore {
  /** The command connection (a `Cluster` in Cluster mode). */
  readonly client: RedisClient;
  /** Cluster mode (README, "Redis Cluster"). */
  readonly cluster: boolean;
  readonly keys: KeySpace;
  readonly finishedTaskTtlMs: number;
  /** Set by a coordinator: status writes then keep the running-task index its janitor reads. */
  trackRunning = false;
  private readonly ownsClient: boolean;
  private readonly url: string | undefined;
  private readonly tail: StreamTail | ShardTail;
  private readonly cache: BoundedCache<string, Current>;
  private readonly subscribers = new Map<string, Set<LogSubscription>>();
  /** When subscribed finished tasks expire (ms since the epoch, from their last read). */
  private readonly expiries = new Map<string, number>();
  private readonly log: A2ALog;
  private closed = false;
  private readonly connectTimeoutMs: number;
  private readonly wait: ReplicaWait | undefined;
  /** Standalone mode: a group commit of the scripts on the connection (corked-batches.ts). */
  private readonly cork: CorkedBatches | undefined;
  /** The connection's last `error` event (ECONNREFUSED, ...): the start-up error names it. */
  private lastConnectionError: Error | undefined;

  constructor(options: RedisTaskStoreOptions = {}) {
    this.url = options.client ? undefined : (options.url ?? DEFAULT_URL);
    this.ownsClient = !options.client;
    // A `Cluster` passed in is the Cluster mode (ioredis marks its clients with `isCluster`).
    this.cluster = options.cluster ?? options.client?.isCluster === true;
    const commandTimeout = options.commandTimeoutMs ?? 5000;
    this.connectTimeoutMs = options.redisOptions?.connectTimeout ?? 5000;
    const base: RedisOptions = {
      lazyConnect: true,
      connectTimeout: 5000,
      maxRetriesPerRequest: 1,
      retryStrategy,
      autoResendUnfulfilledCommands: false,
      // Commands issued in one tick go out in one write: under concurrency most of a request's cost is syscalls. The
      // standalone mode batches on a corked socket itself (corked-batches.ts), cheaper than ioredis's auto-pipelining.
      enableAutoPipelining: this.cluster,
      ...options.redisOptions,
    };
    this.client =
      options.client ??
      (this.cluster
        ? clusterFromUrl(this.url as string, clusterNodeOptions({ commandTimeout, ...base }))
        : new Redis(this.url as string, { commandTimeout, ...base } as LegacyOptions));
    this.keys = new KeySpace(options.keyPrefix ?? 'a2a');
    this.wait = options.wait;
    this.cork = this.cluster ? undefined : new CorkedBatches(this.client as Redis);
    this.finishedTaskTtlMs = options.finishedTaskTtlMs ?? DEFAULT_FINISHED_TASK_TTL_MS;
    this.log = new A2ALog(options.logger, options.onError);
    this.cache = new BoundedCache({ max: options.cacheSize ?? 10_000 });
    defineScripts(this.client);
    // A lost connection must never crash the process (an `error` event nobody listens to throws): the commands that
    // fail report it to their callers, and ioredis reconnects by itself.
    this.client.on('error', (error: Error) => {
      this.lastConnectionError = error;
    });
    const onTailError = (error: unknown) =>
      this.log.error(error, LOG_FIELDS, 'stream tail lost its connection (reconnecting)');
    if (this.cluster) {
      // Sharded pub/sub wake-ups (shard-tail.ts): one subscriber connection per master node.
      this.tail = new ShardTail({
        connect: () => {
          const connection = (this.client as Cluster).duplicate([], {
            lazyConnect: true,
            enableOfflineQueue: true,
            shardedSubscribers: true,
            redisOptions: { connectionName: 'a2a-stream-tail' },
          });
          connection.on('error', ignore);
          return connection;
        },
        channel: (taskId) => this.keys.task(taskId).wake,
        version: async (taskId) => {
          const v = await this.client.hget(this.keys.task(taskId).task, 'v');
          return v === null ? undefined : Number(v);
        },
        checkMs: options.blockMs ?? 5000,
        onError: onTailError,
      });
    } else {
      // The tail's blocking reads hold their own connection; no command timeout (a read blocks for `blockMs` by design).
      const connection = (this.client as Redis).duplicate({
        lazyConnect: true,
        commandTimeout: undefined,
        maxRetriesPerRequest: 0,
        autoResendUnfulfilledCommands: false,
        retryStrategy,
        connectionName: 'a2a-stream-tail',
      });
      connection.on('error', ignore);
      this.tail = new StreamTail({
        connection,
        unblock: (id) => (this.client as Redis).client('UNBLOCK', id),
        blockMs: options.blockMs ?? 5000,
        onError: onTailError,
      });
    }
    // Spans and `a2a.store.operation.duration` per call when an OpenTelemetry SDK is registered (else one check).
    instrumentStore(this, 'redis', STORE_CALLS);
  }

  /**
   * Connects, with a clear error when Redis is down (one round trip). A `url` naming a Cluster node opens the store in
   * Cluster mode unless `cluster: false`.
   */
  static async connect(options: RedisTaskStoreOptions = {}): Promise<RedisTaskStore> {
    const store = new RedisTaskStore(options);
    try {
      await store.start();
    } catch (error) {
      await store.close();
      if (error instanceof ClusterNodeError && options.cluster === undefined && !options.client) {
        return RedisTaskStore.connect({ ...options, cluster: true });
      }
      throw error;
    }
    return store;
  }

  /** Opens the connection (idempotent) and makes one round trip; rejects with a message naming the server. */
  async start(): Promise<void> {
    let info: string;
    let state = '';
    try {
      if (this.client.status === 'wait') await this.connectWithin(this.connectTimeoutMs);
      info = await this.client.info('cluster');
      if (/^cluster_enabled:1\b/m.test(info)) state = (await this.client.cluster('INFO')) as string;
    } catch (error) {
      throw connectionError(this.lastConnectionError ?? error, this.url);
    }
    const isCluster = /^cluster_enabled:1\b/m.test(info);
    if (!isCluster && this.cluster)
      throw connectionError(new Error('not a Redis Cluster node (cluster: true)'), this.url);
    // A node whose cluster cannot serve (no slots assigned, a majority of masters down) would fail every request.
    const clusterState = /^cluster_state:(\w+)/m.exec(state)?.[1];
    if (isCluster && clusterState !== 'ok') {
      throw connectionError(
        new Error(`a Redis Cluster node whose cluster_state is ${clusterState ?? 'unknown'}`),
        this.url,
      );
    }
    // Standalone mode on a Cluster node would be refused (CROSSSLOT) on the first request: say so now (connect() and
    // createRedisTaskStore() then open the Cluster mode instead).
    if (isCluster && !this.cluster) throw clusterError(this.url);
  }

  /** `connect()`, bounded: a Cluster client waits for its slots without limit (a node with none never answers). */
  private async connectWithin(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not ready within ${ms} ms`)), ms);
    });
    try {
      await Promise.race([this.client.connect(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One round trip: the readiness route's check (`health` in createA2AHandler). */
  async ping(): Promise<void> {
    await this.call(() => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const set of this.subscribers.values()) for (const sub of set) void sub.return();
    await this.tail.close(); // closes the tail's connection
    if (this.ownsClient) await this.client.quit().catch(() => this.client.disconnect());
  }

  /** Runs a command; a lost, refused or timed-out connection becomes A2A `Unavailable` (503). */
  async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      // A redirection ioredis did not follow (an auto-pipelined batch after a failover): the slot map is refreshed,
      // so the caller's retry of the `Unavailable` reaches the new master instead of meeting the stale map again.
      if (this.cluster && isRedirection(error)) (this.client as Cluster).refreshSlotsCache?.();
      throw storeError(error);
    }
  }

  /** Runs one of the store's Lua scripts (scripts.ts). */
  script(name: ScriptName, keys: readonly string[], args: readonly (string | number)[] = []): Promise<unknown> {
    const wait = this.wait;
    const send =
      wait && isDurableWrite(name)
        ? () => this.call(() => runScriptReplicated(this.client, name, keys, args, wait))
        : () => this.call(() => runScript(this.client, name, keys, args));
    return this.cork ? this.cork.send(send) : send();
  }

  private taskKeyList(keys: TaskKeys): string[] {
    return [keys.task, keys.log, keys.push, keys.pushOrder, keys.pushState];
  }

  private ttlFor(state: TaskState): number {
    return isTerminal(state) && this.finishedTaskTtlMs > 0 ? this.finishedTaskTtlMs : 0;
  }

  async create(task: Task, owner: TaskOwner): Promise<StoredTask> {
    await this.insert(task, owner, task, undefined);
    this.cache.set(task.id, { task: copyTask(task), version: 1, owner });
    return { task: copyTask(task), version: 1 };
  }

  /** The task and its first event (seq 2) in one script. */
  async createWith(
    task: Task,
    owner: TaskOwner,
    event: TaskEvent,
  ): Promise<{ stored: StoredTask; record: TaskEventRecord }> {
    const next = copyTask(task);
    applyTaskEvent(next, event); // throws on an illegal change: nothing is written
    await this.insert(task, owner, next, event);
    this.cache.set(task.id, { task: next, version: 2, owner });
    const record: TaskEventRecord = {
      taskId: task.id,
      contextId: task.contextId,
      seq: 2,
      event,
      state: next.status.state,
    };
    return { stored: { task: copyTask(task), version: 1 }, record };
  }

  private async insert(task: Task, owner: TaskOwner, row: Task, event: TaskEvent | undefined): Promise<void> {
    if (this.cluster) return this.insertInSlots(task, owner, row, event);
    // The task, its ListTasks entry and its running mark in one script: all or nothing.
    const created = await this.script(
      'a2aCreate',
      [...this.taskKeyList(this.keys.task(task.id)), ...this.indexKeyList(owner)],
      [...this.createArgs(task, owner, row, event), task.id, this.runningMark(row.status.state)],
    );
    if (created !== 1) throw new Error(`Task ${task.id} already exists`);
  }

  /** CREATE_TASK's arguments, which CREATE starts with (scripts.ts): the task as written, and its first event. */
  private createArgs(task: Task, owner: TaskOwner, row: Task, event: TaskEvent | undefined): (string | number)[] {
    const state = row.status.state;
    return [
      owner,
      task.contextId,
      state,
      row.status.timestamp ?? '',
      JSON.stringify(row),
      event ? 2 : 1,
      event ? JSON.stringify(event) : '',
      this.ttlFor(state),
    ];
  }

  /** Cluster mode's insert: the task's script, then its ListTasks entry (cluster-mode.ts says why in this order). */
  private async insertInSlots(task: Task, owner: TaskOwner, row: Task, event: TaskEvent | undefined): Promise<void> {
    const state = row.status.state;
    const version = event ? 2 : 1;
    const ttl = this.ttlFor(state);
    const mark = this.runningMark(state);
    const run = this.runner;
    const [created] = await Promise.all([
      this.script('a2aCreateTask', this.taskKeyList(this.keys.task(task.id)), this.createArgs(task, owner, row, event)),
      mark === '1' ? markRunning(run, this.keys, task.id, '1').catch(ignore) : undefined,
    ]);
    if (created !== 1) throw new Error(`Task ${task.id} already exists`);
    const entry = { taskId: task.id, owner, contextId: task.contextId, version, task: row, ttl };
    await Promise.all([
      indexEntry(run, this.keys, entry, 'c'),
      mark === '0' && markRunning(run, this.keys, task.id, '0'),
    ]);
  }

  /** `script` as a plain function (cluster-mode.ts's steps). */
  private readonly runner = (name: ScriptName, keys: readonly string[], args: readonly (string | number)[]) =>
    this.script(name, keys, args);

  /** The owner's ListTasks keys and the coordinator's running-task key, as the indexing scripts take them. */
  private indexKeyList(owner: TaskOwner): string[] {
    const o = this.keys.owner(owner);
    return [o.list, o.meta, o.expiry, o.seq, this.keys.coord().running];
  }

  /** The running-task mark for a status: '' without a coordinator. */
  private runningMark(state: TaskState): string {
    if (!this.trackRunning) return '';
    return state === 'TASK_STATE_SUBMITTED' || state === 'TASK_STATE_WORKING' ? '1' : '0';
  }

  /**
   * The owner's ListTasks index (and the running-task index of the coordinator's janitor) from a fresh read, after a
   * failed write. The writes themselves index in the same script (a2aCreate, a2aAppendStatus), so a failed write
   * wrote no entry; this heals one left wrong by an instance of an older version, which sent the index update as a
   * second script. Updates are ordered by version: an older one never overwrites a newer one.
   */
  private async indexStatus(
    taskId: string,
    owner: TaskOwner,
    contextId: string,
    version: number,
    task: Task,
    mode: 'r' | 'w',
    failedVersion: number,
  ): Promise<void> {
    const state = task.status.state;
    const ownerKeys = this.keys.owner(owner);
    const writes: Promise<unknown>[] = [
      this.script(
        'a2aIndex',
        [ownerKeys.list, ownerKeys.meta, ownerKeys.expiry, ownerKeys.seq],
        [taskId, version, state, task.status.timestamp ?? '', contextId, this.ttlFor(state), mode, failedVersion],
      ),
    ];
    if (this.trackRunning) {
      const running = state === 'TASK_STATE_SUBMITTED' || state === 'TASK_STATE_WORKING';
      writes.push(this.script('a2aMarkRunning', [this.keys.coord().running], [taskId, running ? '1' : '0']));
    }
    await Promise.all(writes);
  }

  /**
   * After a failed write whose index update was sent with it: the entry under `owner` (written for `version`) is
   * rewritten from the task as stored, or dropped when the task is not `owner`'s or is gone.
   */
  private async repairIndex(taskId: string, owner: TaskOwner, version: number): Promise<Current | undefined> {
    const stored = await this.read(taskId);
    if (stored) {
      const failed = stored.owner === owner ? version : 0;
      await this.indexStatus(taskId, stored.owner, stored.task.contextId, stored.version, stored.task, 'r', failed);
      if (stored.owner === owner) return stored;
    }
    const ownerKeys = this.keys.owner(owner);
    await this.script(
      'a2aIndex',
      [ownerKeys.list, ownerKeys.meta, ownerKeys.expiry, ownerKeys.seq],
      [taskId, version, '', '', '', 0, 'd', version],
    );
    return stored;
  }

  /** The task at `version` when this process wrote that version last (the write-through cache). */
  peek(taskId: string, version: number): StoredTask | undefined {
    const current = this.cache.get(taskId);
    return current?.version === version ? { task: copyTask(current.task), version } : undefined;
  }

  async get(taskId: string, owner?: TaskOwner): Promise<StoredTask | undefined> {
    const current = await this.read(taskId);
    if (!current || (owner !== undefined && current.owner !== owner)) return undefined;
    return { task: current.task, version: current.version };
  }

  /** The task as stored: its snapshot with the logged events after it applied. */
  private async read(taskId: string): Promise<Current | undefined> {
    const keys = this.keys.task(taskId);
    const reply = (await this.script('a2aGet', [keys.task, keys.log])) as
      | [string, string, string, string, string, StreamEntry[]]
      | null;
    if (!reply) return undefined;
    const [owner, version, , json, contextId, tail] = reply;
    const task = JSON.parse(json) as Task;
    for (const entry of tail) applyTaskEvent(task, entryRecord(taskId, entry, contextId).event);
    return { task, version: Number(version), owner };
  }

  async append(taskId: string, expectedVersion: number, event: TaskEvent): Promise<TaskEventRecord> {
    let current = this.cache.get(taskId);
    if (current?.version !== expectedVersion) {
      const stored = await this.read(taskId);
      if (!stored) throw new Error(`Task ${taskId} does not exist`);
      current = stored;
      this.cache.set(taskId, current);
    }
    if (current.version !== expectedVersion)
      throw new ConcurrentModificationError(taskId, expectedVersion, current.version);
    const task = copyTask(current.task);
    applyTaskEvent(task, event); // throws on an illegal change: nothing is written
    const seq = expectedVersion + 1;
    const state = task.status.state;
    const snapshot = seq % SNAPSHOT_EVERY === 0;
    const owner = current.owner;
    const taskKeys = this.taskKeyList(this.keys.task(taskId));
    const args = [
      expectedVersion,
      state,
      task.status.timestamp ?? '',
      snapshot ? JSON.stringify(task) : '',
      JSON.stringify(event),
      this.ttlFor(state),
    ];
    const indexed = event.kind === 'status';
    if (this.cluster) return this.appendInSlots(taskId, expectedVersion, event, task, owner, args);
    // A status change updates the ListTasks index and the running mark in the same script.
    const [status, version] = (await (indexed
      ? this.script(
          'a2aAppendStatus',
          [...taskKeys, ...this.indexKeyList(owner)],
          [...args, taskId, this.runningMark(state)],
        )
      : this.script('a2aAppend', taskKeys, args))) as [number, number];
    if (status !== 1) {
      this.cache.delete(taskId);
      const stored = indexed
        ? await this.repairIndex(taskId, owner, seq).catch(() => undefined)
        : await this.read(taskId).catch(() => undefined);
      if (status === -1 && !stored) throw new Error(`Task ${taskId} does not exist`);
      if (stored) this.cache.set(taskId, stored); // the writer retries on this version: no second read
      throw new ConcurrentModificationError(taskId, expectedVersion, stored?.version ?? version);
    }
    return this.appended(taskId, seq, event, task, owner);
  }

  private appended(taskId: string, seq: number, event: TaskEvent, task: Task, owner: TaskOwner): TaskEventRecord {
    this.cache.set(taskId, { task, version: seq, owner });
    const record: TaskEventRecord = { taskId, contextId: task.contextId, seq, event, state: task.status.state };
    const local = this.subscribers.get(taskId);
    if (local) for (const sub of local) sub.offer(record);
    return record;
  }

  /**
   * Cluster mode's append: the task's script (which also wakes other instances' tails), then for a status change its
   * ListTasks entry (cluster-mode.ts says why in this order). A lost race re-indexes from a fresh read, version-ordered
   * (a write whose index step failed, retried by the executor, then finds its entry).
   */
  private async appendInSlots(
    taskId: string,
    expectedVersion: number,
    event: TaskEvent,
    task: Task,
    owner: TaskOwner,
    args: (string | number)[],
  ): Promise<TaskEventRecord> {
    const keys = this.keys.task(taskId);
    const state = task.status.state;
    const indexed = event.kind === 'status';
    const mark = indexed ? this.runningMark(state) : '';
    const run = this.runner;
    const [[status, version]] = (await Promise.all([
      this.script('a2aAppendPublish', [...this.taskKeyList(keys), keys.wake], args),
      mark === '1' ? markRunning(run, this.keys, taskId, '1').catch(ignore) : undefined,
    ])) as [[number, number], unknown];
    if (status !== 1) {
      this.cache.delete(taskId);
      const stored = await this.read(taskId).catch(() => undefined);
      if (status === -1 && !stored) throw new Error(`Task ${taskId} does not exist`);
      if (stored) {
        this.cache.set(taskId, stored);
        if (indexed)
          await this.indexStatus(
            taskId,
            stored.owner,
            stored.task.contextId,
            stored.version,
            stored.task,
            'w',
            0,
          ).catch(ignore);
      }
      throw new ConcurrentModificationError(taskId, expectedVersion, stored?.version ?? version);
    }
    const seq = expectedVersion + 1;
    if (indexed) {
      const entry = { taskId, owner, contextId: task.contextId, version: seq, task, ttl: this.ttlFor(state) };
      await Promise.all([
        indexEntry(run, this.keys, entry, 'w'),
        mark === '0' && markRunning(run, this.keys, taskId, '0'),
      ]);
    }
    return this.appended(taskId, seq, event, task, owner);
  }

  async list(owner: TaskOwner, query: TaskQuery): Promise<TaskPage> {
    const cursor = query.pageToken ? decodeCursor(query.pageToken) : undefined;
    const keys = this.keys.owner(owner);
    const filter = (value: string | undefined) => (value === undefined ? '' : `=${value}`);
    const [total, entries] = (await this.script(
      'a2aList',
      [keys.list, keys.meta, keys.expiry],
      [
        cursor === undefined ? '' : cursor,
        query.pageSize,
        filter(query.contextId),
        filter(query.status),
        filter(query.statusTimestampAfter),
      ],
    )) as [number, string[]];
    const ids: string[] = [];
    const scores: number[] = [];
    for (let i = 0; i + 1 < entries.length; i += 2) {
      ids.push(entries[i] as string);
      scores.push(Number(entries[i + 1]));
    }
    const more = ids.length > query.pageSize;
    const pageIds = ids.slice(0, query.pageSize);
    const tasks = await Promise.all(pageIds.map((id) => this.read(id)));
    const view = { historyLength: query.historyLength, includeArtifacts: query.includeArtifacts };
    const lastScore = scores[pageIds.length - 1];
    // Cluster mode: the index is a step after the task's write; entries a crash left behind are repaired here.
    const page = this.cluster
      ? await repairPage(
          this.runner,
          this.keys,
          (key, fields) => this.call(() => this.client.hmget(key, ...fields)),
          owner,
          query,
          pageIds,
          tasks,
          (t) => this.ttlFor(t.status.state),
        )
      : tasks.flatMap((t) => (t && t.owner === owner ? [t.task] : []));
    return {
      tasks: page.map((t) => viewTask(t, view)),
      totalSize: Number(total),
      nextPageToken: more && lastScore !== undefined ? encodeCursor(lastScore) : '',
    };
  }

  async readEvents(taskId: string, afterSeq: number): Promise<TaskEventRecord[]> {
    const out: TaskEventRecord[] = [];
    for (let after = afterSeq; ; ) {
      const batch = await this.readLog(taskId, after, READ_BATCH);
      if (!batch) return out;
      out.push(...batch);
      if (batch.length < READ_BATCH) return out;
      after = (batch[batch.length - 1] as TaskEventRecord).seq;
    }
  }

  /** Records with `seq > afterSeq` (at most `limit`), or `undefined` when the task does not exist. */
  private async readLog(taskId: string, afterSeq: number, limit: number): Promise<TaskEventRecord[] | undefined> {
    const keys = this.keys.task(taskId);
    const reply = (await this.script('a2aRead', [keys.task, keys.log], [afterSeq, limit])) as
      | [string, StreamEntry[], number]
      | null;
    if (!reply) return undefined;
    const [contextId, entries, ttl] = reply;
    if (ttl > 0) this.expiries.set(taskId, Date.now() + ttl);
    return entries.map((entry) => entryRecord(taskId, entry, contextId));
  }

  subscribe(taskId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<TaskEventRecord> {
    let set = this.subscribers.get(taskId);
    if (!set) {
      set = new Set();
      this.subscribers.set(taskId, set);
    }
    const subscription = new LogSubscription(
      taskId,
      afterSeq,
      {
        read: (id, after, limit) => this.readLog(id, after, limit),
        expiresIn: (id) => {
          const at = this.expiries.get(id);
          return at === undefined ? undefined : Math.max(0, at - Date.now());
        },
      },
      (sub) => {
        const current = this.subscribers.get(taskId);
        current?.delete(sub);
        if (current?.size === 0) {
          this.subscribers.delete(taskId);
          this.expiries.delete(taskId);
        }
        this.tail.remove(sub);
      },
      signal,
    );
    set.add(subscription);
    if (!this.closed) this.tail.add(subscription, this.keys.task(taskId).log);
    return subscription;
  }

  /** Number of live subscriptions (tests check that streams release theirs). */
  get subscriptionCount(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  // Push notification configs, in hashes under the task's hash tag; they expire with the finished task.

  async savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    const keys = this.keys.task(config.taskId);
    const saved = await this.script(
      'a2aSavePush',
      [keys.task, keys.push, keys.pushOrder],
      [config.id, JSON.stringify(config)],
    );
    if (saved !== 1) throw new Error(`Task ${config.taskId} does not exist`);
  }

  async getPushConfig(taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
    const json = await this.call(() => this.client.hget(this.keys.task(taskId).push, id));
    return json ? (JSON.parse(json) as TaskPushNotificationConfig) : undefined;
  }

  async listPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    const keys = this.keys.task(taskId);
    const values = (await this.script('a2aListPush', [keys.push, keys.pushOrder])) as string[];
    return values.map((json) => JSON.parse(json) as TaskPushNotificationConfig);
  }

  async deletePushConfig(taskId: string, id: string): Promise<void> {
    const keys = this.keys.task(taskId);
    await this.call(() =>
      this.client.multi().hdel(keys.push, id).zrem(keys.pushOrder, id).hdel(keys.pushState, id).exec(),
    );
  }

  /** Push delivery state (core's `PushDeliveryStateStore`): `undefined` until the sender first records progress. */
  readonly deliveryState: PushDeliveryStateStore = {
    get: async (taskId: string, configId: string): Promise<PushDeliveryState | undefined> => {
      const json = await this.call(() => this.client.hget(this.keys.task(taskId).pushState, configId));
      return json ? (JSON.parse(json) as PushDeliveryState) : undefined;
    },
    set: async (taskId: string, configId: string, state: PushDeliveryState): Promise<void> => {
      const keys = this.keys.task(taskId);
      await this.script(
        'a2aSetDelivery',
        [keys.task, keys.pushState],
        [configId, state.lastDeliveredSeq, JSON.stringify(state)],
      );
    },
  };
}

const ignore = () => {};

/** ioredis's constructor options (its `replyMapping` does not type-check under `exactOptionalPropertyTypes`). */
type LegacyOptions = { replyMapping?: 'legacy' };

/** The `Cluster`'s per-node options: the store's, less what a Cluster sets itself (reconnects are its own). */
function clusterNodeOptions(options: RedisOptions): RedisOptions {
  const { retryStrategy: _retry, enableOfflineQueue: _queue, ...node } = options;
  return node;
}
