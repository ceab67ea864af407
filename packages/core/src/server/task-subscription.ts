import { AsyncQueue } from '../store/async-queue.js';
import type { TaskEventRecord, TaskStore } from '../store/task-store.js';
import type { CallContext } from './agent-executor.js';
import { onCallAbort } from './call-context.js';

/** A task's live events as the engine reads them: `next()` until done, `close()` once. */
export interface Subscription {
  next(): Promise<IteratorResult<TaskEventRecord>>;
  /** The next record if it is already there, synchronously; `undefined` (or absent): call `next()`, it waits or ends. */
  ready?(): TaskEventRecord | undefined;
  close(): void;
}

const DONE: IteratorResult<TaskEventRecord> = { value: undefined, done: true };
const emptySubscription: Subscription = { next: async () => DONE, close: () => {} };

/**
 * The store's events of a task until the caller's client goes away. Ended through the iterator's `return()` rather
 * than handed the request's signal: most requests never need that AbortSignal, which costs more than a whole unary
 * call's bookkeeping (see RequestCall). A class, not an object of closures: a subscription lives as long as its
 * stream (docs/performance.md, "Scale").
 */
export class TaskSubscription implements Subscription {
  readonly #iterator: AsyncIterator<TaskEventRecord>;
  readonly #detach: () => void;

  constructor(store: TaskStore, taskId: string, afterSeq: number, call: CallContext) {
    const iterator = store.subscribe(taskId, afterSeq)[Symbol.asyncIterator]();
    this.#iterator = iterator;
    this.#detach = onCallAbort(call, () => void iterator.return?.());
  }

  next(): Promise<IteratorResult<TaskEventRecord>> {
    return this.#iterator.next();
  }

  ready(): TaskEventRecord | undefined {
    // The in-memory store's queue holds what was appended since the last read; other stores' iterators: `next()`.
    const iterator = this.#iterator;
    return iterator instanceof AsyncQueue ? (iterator as AsyncQueue<TaskEventRecord>).take() : undefined;
  }

  close(): void {
    this.#detach();
    void this.#iterator.return?.();
  }
}

/**
 * A subscription opened later, once the task is stored (a message-only answer never needs one); closing it first
 * means it is never opened.
 */
export class LazySubscription implements Subscription {
  #current: Subscription | undefined;
  #ended = false;

  open(make: () => Subscription): void {
    if (!this.#ended) this.#current = make();
  }

  next(): Promise<IteratorResult<TaskEventRecord>> {
    return (this.#ended ? emptySubscription : (this.#current ?? emptySubscription)).next();
  }

  ready(): TaskEventRecord | undefined {
    return this.#ended ? undefined : this.#current?.ready?.();
  }

  close(): void {
    this.#ended = true;
    this.#current?.close();
  }
}
