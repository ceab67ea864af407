import { onAbort } from '../on-abort.js';

/**
 * A single-consumer push queue exposed as an async iterator. `end()` finishes after the buffered items; `return()`
 * (a `for await` break) and the abort signal run `onClose` exactly once.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private done = false;
  private closed = false;

  private readonly detach: (() => void) | undefined;

  constructor(
    private readonly onClose: () => void = () => {},
    signal?: AbortSignal,
  ) {
    // Detached on close: a long-lived signal must not keep one listener per finished queue.
    if (signal) this.detach = onAbort(signal, () => void this.return());
  }

  push(item: T): void {
    if (this.done) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: item, done: false });
    } else this.items.push(item);
  }

  /** No more items; the consumer still gets what is buffered. */
  end(): void {
    this.done = true;
    if (this.items.length === 0) this.close();
  }

  /**
   * The next buffered item, synchronously, or `undefined` when none is buffered (`next()` then waits or ends): a
   * reader that keeps up takes what is already there without a promise and a result object per item (the engine's
   * streams, docs/performance.md "Hot-path tricks").
   */
  take(): T | undefined {
    const item = this.items.shift();
    if (item !== undefined && this.done && this.items.length === 0) this.close();
    return item;
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.take();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.closed || this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.items.length = 0;
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private close(): void {
    this.done = true;
    if (this.closed) return;
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
    this.detach?.();
    this.onClose();
  }
}
