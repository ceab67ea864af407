import type { TaskEventRecord } from '@a2a/core';

/** Polls `check` until it stops throwing, for at most `timeoutMs`; then rethrows its last error. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * A subscription read from its start: `take(n)` resolves with the next `n` records, or rejects after `timeoutMs` with
 * what did arrive (a bound for a broken store, never a timing assertion: a slow store only takes longer).
 */
export class Reader {
  readonly received: TaskEventRecord[] = [];
  private readonly iterator: AsyncIterator<TaskEventRecord>;
  private ended = false;

  constructor(
    iterable: AsyncIterable<TaskEventRecord>,
    private readonly timeoutMs: number,
  ) {
    this.iterator = iterable[Symbol.asyncIterator]();
  }

  /** The next `n` records. */
  async take(n: number): Promise<TaskEventRecord[]> {
    const out: TaskEventRecord[] = [];
    while (out.length < n) {
      const next = await this.next(`${out.length} of ${n} records`);
      if (next.done) throw new Error(`the subscription ended after ${out.length} of ${n} records`);
      out.push(next.value);
    }
    return out;
  }

  /** Resolves once the subscription ends, failing on any record it yields first. */
  async end(): Promise<void> {
    const next = await this.next('the end of the subscription');
    if (!next.done) throw new Error(`expected the subscription to end, got seq ${next.value.seq}`);
  }

  /** The next step, bounded. */
  async next(what: string): Promise<IteratorResult<TaskEventRecord>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no ${what} within ${this.timeoutMs} ms (received seqs ${this.seqs()})`)),
        this.timeoutMs,
      );
    });
    try {
      const next = await Promise.race([this.iterator.next(), timeout]);
      if (next.done) this.ended = true;
      else this.received.push(next.value);
      return next;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the subscription the way the engine does for a departed client. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await bounded(Promise.resolve(this.iterator.return?.()), this.timeoutMs, 'return() of the subscription');
  }

  private seqs(): string {
    return `[${this.received.map((r) => r.seq).join(', ')}]`;
  }
}

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
export async function bounded<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
