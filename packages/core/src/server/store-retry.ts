import { isA2AError } from '../errors.js';
import { backoffDelay, type ResolvedRetryPolicy } from '../push/retry-policy.js';
import { ConcurrentModificationError } from '../store/task-store.js';

/** Default of `storeRetryMs`: how long an execution keeps retrying a write the store refuses as unavailable. */
export const DEFAULT_STORE_RETRY_MS = 5 * 60_000;

/** A store that is down (A2A `Unavailable`, as `@a2a/postgres` reports a lost connection): the write may work later. */
export const isStoreUnavailable = (error: unknown): boolean => isA2AError(error) && error.type === 'Unavailable';

// Lost races: short jittered waits (the other writer is already done); outages: longer ones, up to 2 s apart, so a
// store that comes back is written to within about two seconds.
const CONFLICT_BACKOFF: ResolvedRetryPolicy = {
  maxAttempts: Number.POSITIVE_INFINITY,
  failingAttempts: 1,
  baseDelayMs: 5,
  maxDelayMs: 250,
  factor: 2,
};
const OUTAGE_BACKOFF: ResolvedRetryPolicy = { ...CONFLICT_BACKOFF, baseDelayMs: 100, maxDelayMs: 2000 };

/** Waits before retry `attempt` (1-based): a version conflict's first retry is immediate, then jittered backoff. */
export function conflictPause(attempt: number): Promise<void> | undefined {
  return attempt <= 1 ? undefined : pause(backoffDelay(CONFLICT_BACKOFF, attempt - 1, Math.random));
}

/**
 * Runs `write` until it stops losing version races: a {@link ConcurrentModificationError} is retried after
 * {@link conflictPause}, `attempts` tries in all, then `exhausted(error)` is thrown (the conflict itself by default).
 * `write` gets the conflict that caused its retry (to re-read or take its `actualVersion`); other errors are thrown.
 */
export async function retryOnConflict<T>(
  attempts: number,
  write: (conflict: ConcurrentModificationError | undefined) => Promise<T>,
  exhausted: (error: ConcurrentModificationError) => Error = (error) => error,
): Promise<T> {
  let conflict: ConcurrentModificationError | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(conflict);
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
      if (attempt >= attempts) throw exhausted(error);
      conflict = error;
      await conflictPause(attempt);
    }
  }
}

/**
 * Runs `read` again while the store answers it as unavailable, after {@link outagePause}, for up to `retryMs` in all;
 * then, or on any other error, the error is thrown.
 */
export async function retryWhileUnavailable<T>(retryMs: number, read: () => Promise<T>): Promise<T> {
  const since = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!isStoreUnavailable(error) || Date.now() - since >= retryMs) throw error;
      await outagePause(attempt);
    }
  }
}

/** Waits before retry `attempt` (1-based) of a write the store refused as unavailable. */
export function outagePause(attempt: number): Promise<void> {
  return pause(backoffDelay(OUTAGE_BACKOFF, attempt, Math.random) + 20);
}

// Unref'd: a retry alone does not keep a process alive that is otherwise done.
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());
