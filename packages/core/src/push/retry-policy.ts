import type { PushConfigHealth } from './delivery-state.js';

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

/**
 * What one attempt came to: `ok`; `retry` (within the budget); `drop` the event (retrying cannot help), or `disable`
 * the config (the webhook is gone or not allowed). Both of the latter give up on the event at once.
 */
export type AttemptOutcome =
  | { kind: 'ok'; status: number }
  | { kind: 'retry'; reason: string; status?: number; retryAfterMs?: number }
  | { kind: 'drop' | 'disable'; reason: string; status?: number };

/**
 * The webhook's answer as an outcome. 410 says the endpoint is gone for good; 413 would come back for the same body;
 * a redirect is never followed (it could point past the SSRF check). Anything else, 4xx included, is retried: a
 * receiver that is misconfigured or still deploying may be fixed within the budget. Only 429 and 503 carry a
 * `Retry-After` worth honouring.
 */
export function responseOutcome(
  status: number,
  retryAfter: string | null,
  policy: ResolvedRetryPolicy,
  now = Date.now(),
): AttemptOutcome {
  if (status >= 200 && status < 300) return { kind: 'ok', status };
  if (status === 410) return { kind: 'disable', status, reason: 'webhook answered 410 Gone' };
  if (status === 413) return { kind: 'drop', status, reason: 'webhook answered 413: notification too large' };
  if (status >= 300 && status < 400)
    return { kind: 'drop', status, reason: `webhook answered a redirect (${status}); redirects are not followed` };
  const wait = status === 429 || status === 503 ? retryAfterMs(retryAfter, policy.maxDelayMs, now) : undefined;
  return {
    kind: 'retry',
    status,
    reason: `webhook answered ${status}`,
    ...(wait !== undefined && { retryAfterMs: wait }),
  };
}

/** Attempts one event gets: the full budget while the config is healthy, a short one once it is failing. */
export function attemptBudget(policy: ResolvedRetryPolicy, health: PushConfigHealth): number {
  return health === 'failing' ? policy.failingAttempts : policy.maxAttempts;
}

/** The wait before the next attempt: the webhook's `Retry-After` when it gave one, else the jittered backoff. */
export function retryDelay(
  policy: ResolvedRetryPolicy,
  outcome: { retryAfterMs?: number },
  attempts: number,
  random: () => number,
): number {
  return outcome.retryAfterMs ?? backoffDelay(policy, attempts, random);
}

/** The config's health once an event was given up: a disabling answer stops it, anything else leaves it failing. */
export function healthAfterFailure(outcome: AttemptOutcome): PushConfigHealth {
  return outcome.kind === 'disable' ? 'disabled' : 'failing';
}

/** `Retry-After` as milliseconds (delta-seconds or an HTTP date), capped; `undefined` when absent or invalid. */
export function retryAfterMs(header: string | null, maxMs: number, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const ms = /^\d+$/.test(trimmed)
    ? Number(trimmed) * 1000
    : HTTP_DATE.test(trimmed)
      ? Date.parse(trimmed) - now
      : Number.NaN;
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), maxMs) : undefined;
}

/**
 * Every HTTP-date form starts with the day's name (RFC 9110 §5.6.7). Checked before Date.parse, which takes '1.5' or
 * '-1' for a day in 2001, so a malformed header meant an immediate retry instead of the backoff.
 */
const HTTP_DATE = /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i;

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
