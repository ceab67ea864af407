import type { LogSubscription } from './log-subscription.js';

/** A task a tail follows: this instance's subscriptions to it, and the key (or channel) it is read by. */
export interface TailedTask {
  taskId: string;
  key: string;
  subscriptions: Set<LogSubscription>;
}

/**
 * The tails' shared bookkeeping ({@link StreamTail} by stream key, {@link ShardTail} by shard channel): the tasks
 * that have subscriptions on this instance, found by task id or by key; a task is tailed from its first
 * subscription to its last.
 */
export class TailedTasks<T extends TailedTask> {
  private readonly byTask = new Map<string, T>();
  private readonly byKey = new Map<string, T>();

  get size(): number {
    return this.byTask.size;
  }

  get(taskId: string): T | undefined {
    return this.byTask.get(taskId);
  }

  ofKey(key: string): T | undefined {
    return this.byKey.get(key);
  }

  values(): IterableIterator<T> {
    return this.byTask.values();
  }

  /** Adds the subscription; for its task's first one, `create`s the task's entry and returns it. */
  add(subscription: LogSubscription, create: () => T): T | undefined {
    const tailed = this.byTask.get(subscription.taskId);
    if (tailed) {
      tailed.subscriptions.add(subscription);
      return undefined;
    }
    const created = create();
    created.subscriptions.add(subscription);
    this.byTask.set(created.taskId, created);
    this.byKey.set(created.key, created);
    return created;
  }

  /** Removes the subscription; when it was its task's last one, the task is no longer tailed: its entry is returned. */
  remove(subscription: LogSubscription): T | undefined {
    const tailed = this.byTask.get(subscription.taskId);
    if (!tailed) return undefined;
    tailed.subscriptions.delete(subscription);
    if (tailed.subscriptions.size > 0) return undefined;
    this.byTask.delete(tailed.taskId);
    this.byKey.delete(tailed.key);
    return tailed;
  }
}
