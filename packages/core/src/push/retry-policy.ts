export interface RetryPolicy {
  /** Attempts per event while the config is healthy (the first try included). Default 12. */
  maxAttempts?: number;
  /** Attempts per event once the config is failing (its last event exhausted the budget). Default 1. */
  failingAttempts?: number;
  /** First backoff ceiling. Default 1 s. */
  baseDelayMs?: number;
  /** Largest backoff, also the cap on a `Retry-After`. Default 10 min. */
  maxDelayMs?: number;
  /** Growth per attempt. Default 2. */
  factor?: number;
}

export type ResolvedRetryPolicy = Required<RetryPolicy>;

export function resolveRetryPolicy(policy: RetryPolicy = {}): ResolvedRetryPolicy {
  return {
    maxAttempts: Math.max(1, policy.maxAttempts ?? 12),
    failingAttempts: Math.max(1, policy.failingAttempts ?? 1),
    baseDelayMs: policy.baseDelayMs ?? 1000,
    maxDelayMs: policy.maxDelayMs ?? 600_000,
    factor: policy.factor ?? 2,
  };
}

/** Exponential backoff with full jitter: a uniform delay below the attempt's ceiling (spreads retry storms). */
export function backoffDelay(policy: ResolvedRetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` as milliseconds (delta-seconds or an HTTP date), capped; `undefined` when absent or invalid. */
export function retryAfterMs(header: string | null, maxMs: number, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), maxMs) : undefined;
}

/** Resolves after `ms`, or early (without throwing) when the signal aborts. The timer does not hold the process. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    (timer as { unref?: () => void }).unref?.();
    signal.addEventListener('abort', done, { once: true });
  });
}
