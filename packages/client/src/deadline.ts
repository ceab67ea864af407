import { A2AError } from '@a2a/core/errors';

/** Errors this client raised because the agent went silent (streams reconnect after those, not after the agent's). */
const timeouts = new WeakSet<object>();

/** Whether `error` is a timeout of this client (an `Unavailable` A2AError), not an error the agent answered. */
export const isTimeout = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && timeouts.has(error);

/**
 * The clock of one call. Its `signal` goes to fetch; every wait on the network goes through `wait`, so a silent agent
 * (or a custom fetch that ignores the signal) cannot hold the call past the limit, and neither can the caller's abort.
 * `total`: one limit for the whole call (unary). Otherwise the limit applies to each wait alone (a stream's idle time:
 * time the consumer spends on an event is not the agent's silence).
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly expired: Promise<never>;
  private fail: (reason: unknown) => void = () => {};
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly total: boolean,
    private readonly outer: AbortSignal | undefined,
    private readonly what: string,
  ) {
    this.signal = this.controller.signal;
    this.expired = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    this.expired.catch(() => {}); // a deadline nobody waits on when it fires is not an unhandled rejection
    if (outer?.aborted) this.abort(outer.reason);
    else outer?.addEventListener('abort', this.onAbort);
    if (total) this.arm();
  }

  private readonly onAbort = () => this.abort(this.outer?.reason);

  private abort(reason: unknown) {
    this.stop();
    this.fail(reason);
    this.controller.abort(reason);
  }

  private arm() {
    if (!(this.ms > 0 && this.ms < 2 ** 31)) return; // 0 or Infinity: no limit (setTimeout would fire at once)
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const message = this.total
        ? `The agent did not answer ${this.what} within ${this.ms} ms`
        : `The agent sent nothing on ${this.what} for ${this.ms} ms`;
      const error = new A2AError('Unavailable', message, { metadata: { timeoutMs: String(this.ms) } });
      timeouts.add(error);
      this.abort(error);
    }, this.ms);
  }

  /** `promise`, or the timeout's A2AError / the caller's abort reason if either comes first. */
  async wait<T>(promise: Promise<T>): Promise<T> {
    if (!this.total) this.arm();
    try {
      return await Promise.race([promise, this.expired]);
    } finally {
      if (!this.total) clearTimeout(this.timer);
    }
  }

  /** Ends the clock (the call is over); the caller's signal is let go. */
  stop() {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onAbort);
  }
}
