import type { TaskEvent, TaskEventRecord, TaskState } from '@a2a/core';
import type { Cluster } from 'ioredis';
import type { LogSubscription } from './log-subscription.js';
import { type TailedTask, TailedTasks } from './tailed-tasks.js';

export interface ShardTailOptions {
  /**
   * A new Cluster client of the tail's own with `shardedSubscribers: true` (one subscriber connection per master
   * node): one at the start, and another whenever the one in use has gone deaf (see {@link ShardTail}).
   */
  connect(): Cluster;
  /** The task's wake-up channel (in the task's hash slot: keys.ts). */
  channel(taskId: string): string;
  /** The task's version (its newest seq), or `undefined` when it does not exist: the periodic check's read. */
  version(taskId: string): Promise<number | undefined>;
  /** How often every tailed task's version is checked against its subscriptions (ms). */
  checkMs: number;
  onError(error: unknown): void;
}

/** `key`: the task's shard channel. */
interface Tailed extends TailedTask {
  /** The newest seq a message announced (or, from the first check on, the version then). */
  heard: number;
  /** Checked once: `heard` counts from the version the first check read. */
  checked: boolean;
  /** The version the last check found past `heard`: still past it at the next check means deaf. */
  behind: number | undefined;
}

/**
 * The Cluster mode's cross-instance fan-out (the standalone one is {@link StreamTail}'s multi-key XREAD, which a
 * Cluster refuses across slots). Every append publishes its record on the task's shard channel in the same script
 * (scripts.ts, APPEND_PUBLISH); this instance SSUBSCRIBEs to the channels of the tasks it has subscribers for and
 * offers them the record; a subscription that is behind it (or a message it cannot read) reads its log from its own
 * cursor (XRANGE), so a message lost or repeated changes nothing but latency. Messages can be lost (a subscriber
 * connection that drops, a failover, the gap before an SSUBSCRIBE is acknowledged), so the subscriptions are also
 * woken after every (re)subscription, and every `checkMs` each tailed task's version is read (one HGET) and compared
 * with its subscriptions' cursors. ioredis does not always subscribe again after its subscriber connections drop
 * (several nodes' at once: packages/redis/test/cluster-restart.test.ts), so a version that a check finds past what
 * the task's messages announced, and that the next check finds still unannounced, means the client is deaf: the tail
 * opens a new one, subscribes to every channel there and drops the old one.
 * Connections: one subscriber per master node, whatever the number of open streams.
 */
export class ShardTail {
  private readonly tasks = new TailedTasks<Tailed>();
  private readonly timer: ReturnType<typeof setInterval>;
  private connection: Cluster;
  private closed = false;
  private checking = false;
  private failing = false;
  /** New clients opened because the one in use went deaf (tests). */
  reconnects = 0;

  constructor(private readonly options: ShardTailOptions) {
    this.connection = this.open();
    this.timer = setInterval(() => void this.check(), options.checkMs);
    this.timer.unref?.();
  }

  private open(): Cluster {
    const connection = this.options.connect();
    connection.on('smessage', (channel: string, message: string) => {
      if (connection !== this.connection) return;
      const tailed = this.tasks.ofKey(channel);
      if (!tailed) return;
      const record = parseRecord(tailed.taskId, message);
      if (!record) return this.wake(tailed.taskId);
      if (record.seq > tailed.heard) tailed.heard = record.seq;
      // The record itself (APPEND_PUBLISH): offered, so no read of the stream per subscriber; a subscription behind
      // it holds it and reads the gap (LogSubscription.offer).
      for (const sub of tailed.subscriptions) sub.offer(record);
    });
    // A subscriber (re)connected and subscribed again: what was published meanwhile is read from the logs.
    connection.on('subscribersReady', () => this.wakeAll());
    connection.on('+subscriber', () => this.wakeAll());
    return connection;
  }

  /** Entries written between the subscription's first read and the SSUBSCRIBE are announced to nobody: read again. */
  private subscribe(taskId: string, channel: string): void {
    this.connection.ssubscribe(channel).then(
      () => this.wake(taskId),
      (error: unknown) => this.failed(error),
    );
  }

  /** A new client subscribed to every channel, then the deaf one dropped. */
  private reconnect(): void {
    const deaf = this.connection;
    this.reconnects++;
    this.connection = this.open();
    for (const tailed of this.tasks.values()) {
      tailed.behind = undefined;
      this.subscribe(tailed.taskId, tailed.key);
    }
    deaf.disconnect();
  }

  /** Number of tasks tailed (tests). */
  get size(): number {
    return this.tasks.size;
  }

  add(subscription: LogSubscription): void {
    const { taskId } = subscription;
    const added = this.tasks.add(subscription, () => ({
      taskId,
      key: this.options.channel(taskId),
      subscriptions: new Set(),
      heard: 0,
      checked: false,
      behind: undefined,
    }));
    if (added) this.subscribe(taskId, added.key);
  }

  remove(subscription: LogSubscription): void {
    const untailed = this.tasks.remove(subscription);
    if (untailed && !this.closed) this.connection.sunsubscribe(untailed.key).catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.connection.disconnect();
  }

  private wake(taskId: string, seq?: number): void {
    for (const sub of this.tasks.get(taskId)?.subscriptions ?? []) sub.wake(seq);
  }

  private wakeAll(): void {
    for (const tailed of this.tasks.values()) this.wake(tailed.taskId);
  }

  private failed(error: unknown): void {
    if (this.closed) return;
    if (!this.failing) this.options.onError(error);
    this.failing = true;
  }

  /** The safety net for lost messages: a tailed task whose version is past a subscription's cursor wakes it. */
  private async check(): Promise<void> {
    if (this.checking || this.closed || this.tasks.size === 0) return;
    this.checking = true;
    try {
      const ids = [...this.tasks.values()].map((tailed) => tailed.taskId);
      const versions = await Promise.all(ids.map((id) => this.options.version(id)));
      let deaf = false;
      ids.forEach((id, i) => {
        const version = versions[i];
        const tailed = this.tasks.get(id);
        // Gone (expired): woken without a seq, so a waiting subscription reads, finds no task and ends.
        if (version === undefined || !tailed) {
          this.wake(id);
          return;
        }
        if (!tailed.checked) {
          tailed.checked = true;
          tailed.heard = Math.max(tailed.heard, version);
        } else {
          // The version the last check found unannounced is still unannounced a whole interval later: no message
          // in flight takes that long.
          if (tailed.behind !== undefined && tailed.heard < tailed.behind) deaf = true;
          tailed.behind = version > tailed.heard ? version : undefined;
        }
        this.wake(id, version);
      });
      this.failing = false;
      if (deaf && !this.closed) this.reconnect();
    } catch (error) {
      this.failed(error);
    } finally {
      this.checking = false;
    }
  }
}

/** A published record, `[seq, state, contextId, event]`; `undefined` for anything else (then a wake-up). */
function parseRecord(taskId: string, message: string): TaskEventRecord | undefined {
  try {
    const [seq, state, contextId, event] = JSON.parse(message) as [number, TaskState, string, TaskEvent];
    if (!Number.isInteger(seq) || typeof state !== 'string' || typeof contextId !== 'string' || !event)
      return undefined;
    return { taskId, contextId, seq, event, state };
  } catch {
    return undefined;
  }
}
