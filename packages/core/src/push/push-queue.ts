import type { TaskEventRecord } from '../store/task-store.js';

/** Following one task's event log; stopped when a newer watch replaces it or the sender closes. */
export class TaskWatcher {
  /** The cursor it follows from, once known (a newer watch from an earlier seq replaces it). */
  from = Number.POSITIVE_INFINITY;
  private readonly controller = new AbortController();
  readonly signal: AbortSignal;

  constructor(
    readonly taskId: string,
    parent: AbortSignal,
  ) {
    this.signal = AbortSignal.any([parent, this.controller.signal]);
  }

  stop(): void {
    this.controller.abort();
  }
}

/**
 * Pending events of one (task, config), drained by one loop at a time: the next event goes out only once the one
 * before it was delivered or given up, so a receiver sees `seq` in order even across retries.
 */
export class ConfigQueue {
  private pending: TaskEventRecord[] = [];
  private running = false;

  constructor(
    readonly taskId: string,
    readonly configId: string,
    private readonly drain: (queue: ConfigQueue) => Promise<void>,
    private readonly done: (queue: ConfigQueue) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(record: TaskEventRecord): void {
    this.pending.push(record);
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  shift(): TaskEventRecord | undefined {
    return this.pending.shift();
  }

  clear(): void {
    this.pending = [];
  }

  private async loop(): Promise<void> {
    while (this.pending.length > 0) {
      try {
        await this.drain(this);
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = false;
    this.done(this);
  }
}

/**
 * One queue per (task, config), so a slow or dead webhook holds up only its own events. A queue is dropped once
 * drained; `idle()` waits for all of them.
 */
export class PushQueues {
  private readonly queues = new Map<string, ConfigQueue>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly drain: (queue: ConfigQueue) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(configId: string, record: TaskEventRecord): void {
    const key = queueKey(record.taskId, configId);
    let queue = this.queues.get(key);
    if (!queue) {
      queue = new ConfigQueue(record.taskId, configId, this.drain, (q) => this.queueDone(q), this.onError);
      this.queues.set(key, queue);
    }
    queue.push(record);
  }

  /** Resolves once no notification is queued or in flight. */
  idle(): Promise<void> {
    if (this.queues.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private queueDone(queue: ConfigQueue): void {
    const key = queueKey(queue.taskId, queue.configId);
    if (this.queues.get(key) === queue) this.queues.delete(key);
    if (this.queues.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

const queueKey = (taskId: string, configId: string) => `${taskId}\u0000${configId}`;
