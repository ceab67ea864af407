import type { TaskEvent, TaskEventRecord, TaskState } from '@a2a/core';
import type { Redis } from 'ioredis';
import type { LogSubscription } from './log-subscription.js';
import { type TailedTask, TailedTasks } from './tailed-tasks.js';

/** A stream entry as ioredis returns it: `[id, [field, value, ...]]`. */
export type StreamEntry = [string, string[]];

/** The record of one stream entry (`<seq>-0`, fields c, s, e). */
export function entryRecord(taskId: string, [id, fields]: StreamEntry, contextId?: string): TaskEventRecord {
  let c = contextId ?? '';
  let s = '';
  let e = 'null';
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const value = fields[i + 1] as string;
    switch (fields[i]) {
      case 'c':
        c = value;
        break;
      case 's':
        s = value;
        break;
      case 'e':
        e = value;
        break;
    }
  }
  return {
    taskId,
    contextId: c,
    seq: Number.parseInt(id, 10),
    event: JSON.parse(e) as TaskEvent,
    state: s as TaskState,
  };
}

interface Tailed extends TailedTask {
  /** The newest seq this tail has read (or the first subscriber's cursor). */
  cursor: number;
}

export interface StreamTailOptions {
  /** The blocking connection (a duplicate of the store's client): XREAD BLOCK holds it. */
  connection: Redis;
  /** Sends CLIENT UNBLOCK on the store's command connection. */
  unblock(clientId: number): Promise<unknown>;
  /** How long one XREAD blocks (ms). */
  blockMs: number;
  /** After a failed XREAD (the connection was lost): readers may have missed a wake-up. */
  onError(error: unknown): void;
}

const COUNT = 500;

/**
 * Cross-instance fan-out: one XREAD BLOCK on a dedicated connection over the streams of every task that has a
 * subscriber on this instance, each from the newest id this instance has read, so every instance reads every event
 * of the tasks it serves (no consumer group: those split a stream's entries between readers). Records go to the
 * subscriptions, which drop what they have already seen. A task that gains its first subscriber while the read is
 * blocked interrupts it (CLIENT UNBLOCK from the command connection) so the next read includes it. After a lost
 * connection the loop reads again from the same ids (nothing skipped, nothing repeated) and every subscription is
 * woken to re-read its log.
 */
export class StreamTail {
  private readonly tasks = new TailedTasks<Tailed>();
  /** Changed since the XREAD in flight was sent: it must be interrupted. */
  private dirty = false;
  private pending = false;
  private interrupting = false;
  private clientId: number | undefined;
  private closed = false;
  private wakeLoop: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private failures = 0;
  /** Settles when close() is called: the loop's commands race it (see {@link untilClosed}). */
  private readonly closing: Promise<void>;
  private settleClosing!: () => void;

  constructor(private readonly options: StreamTailOptions) {
    this.closing = new Promise((resolve) => {
      this.settleClosing = resolve;
    });
    options.connection.on('close', () => {
      this.clientId = undefined;
    });
  }

  /** Number of tasks tailed (tests). */
  get size(): number {
    return this.tasks.size;
  }

  /** A subscription behind the tail's cursor is covered by its own first read; from the tail it takes what follows. */
  add(subscription: LogSubscription, key: string): void {
    const { taskId, cursor } = subscription;
    if (this.tasks.add(subscription, () => ({ taskId, key, cursor, subscriptions: new Set() }))) this.changed();
  }

  /** No interruption needed: the read in flight returns by its timeout, or with entries nobody takes. */
  remove(subscription: LogSubscription): void {
    this.tasks.remove(subscription);
  }

  /** Every subscription reads its log again (after a reconnect). */
  wakeAll(): void {
    for (const tailed of this.tasks.values()) for (const sub of tailed.subscriptions) sub.wake();
  }

  /** Ends the loop: the blocking connection is closed (which fails the XREAD in flight at once). */
  async close(): Promise<void> {
    this.closed = true;
    this.settleClosing();
    this.wakeLoop?.();
    this.options.connection.disconnect();
    await this.loop;
  }

  private changed(): void {
    this.dirty = true;
    if (!this.loop) this.loop = this.run();
    this.wakeLoop?.();
    if (this.pending) void this.interrupt();
  }

  /** Interrupts the XREAD in flight, retrying until it has reached the server (CLIENT UNBLOCK answers 0 before). */
  private async interrupt(): Promise<void> {
    if (this.interrupting) return;
    this.interrupting = true;
    try {
      for (let attempt = 0; this.dirty && this.pending && !this.closed; attempt++) {
        const id = this.clientId;
        if (id !== undefined) {
          const unblocked = await this.options.unblock(id).catch(() => 0);
          if (unblocked === 1 || !this.pending) return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** attempt, 50)));
      }
    } finally {
      this.interrupting = false;
    }
  }

  /**
   * A command of the loop, or `undefined` once closed. A command queued while ioredis waits to reconnect is never
   * settled by `disconnect()` (no socket to close), so awaiting it alone would hang close() during an outage.
   */
  private untilClosed<T>(command: Promise<T>): Promise<T | undefined> {
    command.catch(() => {}); // settled after close: nobody awaits it any more
    return Promise.race([command, this.closing.then(() => undefined)]);
  }

  private async run(): Promise<void> {
    const { connection } = this.options;
    while (!this.closed) {
      if (this.tasks.size === 0) {
        await new Promise<void>((resolve) => {
          this.wakeLoop = resolve;
        });
        this.wakeLoop = undefined;
        continue;
      }
      const tailed = [...this.tasks.values()];
      let reply: [string, StreamEntry[]][] | null = null;
      try {
        if (this.clientId === undefined) this.clientId = Number(await this.untilClosed(connection.client('ID')));
        this.dirty = false;
        this.pending = true;
        const args: (string | number)[] = ['COUNT', COUNT, 'BLOCK', this.options.blockMs, 'STREAMS'];
        for (const t of tailed) args.push(t.key);
        for (const t of tailed) args.push(`${t.cursor}-0`);
        reply = (await this.untilClosed(
          (connection.xread as (...a: (string | number)[]) => Promise<unknown>)(...args),
        )) as [string, StreamEntry[]][] | null;
        this.pending = false;
        if (this.failures > 0) {
          this.failures = 0;
          this.wakeAll();
        }
      } catch (error) {
        this.pending = false;
        if (this.closed) break;
        if (this.failures++ === 0) this.options.onError(error);
        this.wakeAll();
        await this.untilClosed(new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** this.failures, 1000))));
        continue;
      }
      for (const [key, entries] of reply ?? []) {
        const t = this.tasks.ofKey(key);
        if (!t) continue;
        for (const entry of entries) {
          const record = entryRecord(t.taskId, entry);
          if (record.seq <= t.cursor) continue;
          t.cursor = record.seq;
          for (const sub of t.subscriptions) sub.offer(record);
        }
      }
    }
  }
}
