import { describe, expect, it } from 'vitest';
import {
  attemptBudget,
  backoffDelay,
  healthAfterFailure,
  resolveRetryPolicy,
  responseOutcome,
  retryAfterMs,
  retryDelay,
} from './retry-policy.js';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const policy = resolveRetryPolicy({
  baseDelayMs: 100,
  maxDelayMs: 5000,
  factor: 2,
  maxAttempts: 4,
  failingAttempts: 2,
});

describe('resolveRetryPolicy', () => {
  it('fills in the documented defaults and never allows fewer than one attempt', () => {
    expect(resolveRetryPolicy()).toEqual({
      maxAttempts: 12,
      failingAttempts: 1,
      baseDelayMs: 1000,
      maxDelayMs: 600_000,
      factor: 2,
    });
    expect(resolveRetryPolicy({ maxAttempts: 0, failingAttempts: -3 })).toMatchObject({
      maxAttempts: 1,
      failingAttempts: 1,
    });
  });
});

describe('backoffDelay', () => {
  it('is a uniform draw below a ceiling that grows by `factor` per attempt (full jitter)', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(policy, attempt, top))).toEqual([99, 199, 399, 799]);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(200);
  });

  it('never exceeds maxDelayMs, however many attempts', () => {
    expect(backoffDelay(policy, 40, () => 0.999_999)).toBe(4999);
  });
});

describe('retryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterMs('3', 60_000, NOW)).toBe(3000);
    expect(retryAfterMs(' 0 ', 60_000, NOW)).toBe(0);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(retryAfterMs(new Date(NOW + 7000).toUTCString(), 60_000, NOW)).toBe(7000);
    expect(retryAfterMs('Fri, 27 Nov 2026 12:00:30 GMT', 60_000, NOW)).toBe(30_000);
    expect(retryAfterMs('Friday, 27-Nov-26 12:00:30 GMT', 60_000, NOW)).toBe(30_000); // the obsolete RFC 850 form
  });

  it('a date already past means now', () => {
    expect(retryAfterMs(new Date(NOW - 60_000).toUTCString(), 60_000, NOW)).toBe(0);
  });

  it('is capped by the policy’s largest delay, in both forms', () => {
    expect(retryAfterMs('86400', 5000, NOW)).toBe(5000);
    expect(retryAfterMs(new Date(NOW + 86_400_000).toUTCString(), 5000, NOW)).toBe(5000);
  });

  it('is undefined when absent or not a number or date', () => {
    expect(retryAfterMs(null, 5000, NOW)).toBeUndefined();
    expect(retryAfterMs('', 5000, NOW)).toBeUndefined();
    expect(retryAfterMs('soon', 5000, NOW)).toBeUndefined();
  });

  it('is undefined for what V8’s lenient Date.parse would take for a date (fractions, signs, stray words)', () => {
    // Date.parse('1.5') is 5 Jan 2001: read as a date, each of these meant "retry now", with no backoff at all.
    for (const header of ['1.5', '-1', '+5', '2.0', 'abc 1', 'in 5', '5 s']) {
      expect(retryAfterMs(header, 5000, NOW), header).toBeUndefined();
    }
    expect(responseOutcome(503, '1.5', policy, NOW)).toEqual({
      kind: 'retry',
      status: 503,
      reason: 'webhook answered 503',
    });
  });
});

describe('responseOutcome: what each answer does', () => {
  it('2xx is delivered', () => {
    for (const status of [200, 201, 202, 204, 299]) {
      expect(responseOutcome(status, null, policy, NOW)).toEqual({ kind: 'ok', status });
    }
  });

  it('410 Gone disables the config', () => {
    expect(responseOutcome(410, '1', policy, NOW)).toEqual({
      kind: 'disable',
      status: 410,
      reason: 'webhook answered 410 Gone',
    });
  });

  it('413 drops the event without a retry', () => {
    expect(responseOutcome(413, '1', policy, NOW)).toEqual({
      kind: 'drop',
      status: 413,
      reason: 'webhook answered 413: notification too large',
    });
  });

  it('a redirect drops the event: it is neither followed nor retried', () => {
    for (const status of [300, 301, 302, 303, 304, 307, 308]) {
      expect(responseOutcome(status, null, policy, NOW)).toEqual({
        kind: 'drop',
        status,
        reason: `webhook answered a redirect (${status}); redirects are not followed`,
      });
    }
  });

  it('429 and 503 are retried after their Retry-After (seconds or date, capped), else after the backoff', () => {
    for (const status of [429, 503]) {
      expect(responseOutcome(status, '2', policy, NOW)).toEqual({
        kind: 'retry',
        status,
        reason: `webhook answered ${status}`,
        retryAfterMs: 2000,
      });
      expect(responseOutcome(status, new Date(NOW + 4000).toUTCString(), policy, NOW)).toMatchObject({
        retryAfterMs: 4000,
      });
      expect(responseOutcome(status, '3600', policy, NOW)).toMatchObject({ retryAfterMs: 5000 });
      const bare = responseOutcome(status, null, policy, NOW);
      expect(bare).toEqual({ kind: 'retry', status, reason: `webhook answered ${status}` });
    }
  });

  it('other 5xx are retried on the backoff; their Retry-After is not honoured', () => {
    for (const status of [500, 502, 504]) {
      expect(responseOutcome(status, '2', policy, NOW)).toEqual({
        kind: 'retry',
        status,
        reason: `webhook answered ${status}`,
      });
    }
  });

  it('other 4xx are retried too (a misconfigured receiver may be fixed within the budget)', () => {
    for (const status of [400, 401, 403, 404, 408, 422]) {
      expect(responseOutcome(status, null, policy, NOW)).toEqual({
        kind: 'retry',
        status,
        reason: `webhook answered ${status}`,
      });
    }
  });
});

describe('the budget and the wait between attempts', () => {
  it('a healthy config gets maxAttempts per event, a failing one failingAttempts', () => {
    expect(attemptBudget(policy, 'active')).toBe(4);
    expect(attemptBudget(policy, 'failing')).toBe(2);
  });

  it('waits the webhook’s Retry-After when it gave one (even 0), else the jittered backoff of the attempt', () => {
    const random = () => 0.5;
    expect(retryDelay(policy, { retryAfterMs: 1234 }, 1, random)).toBe(1234);
    expect(retryDelay(policy, { retryAfterMs: 0 }, 3, random)).toBe(0);
    expect(retryDelay(policy, {}, 1, random)).toBe(50);
    expect(retryDelay(policy, {}, 3, random)).toBe(200);
  });

  it('an event given up leaves the config failing, or disabled when the answer disables it', () => {
    expect(healthAfterFailure({ kind: 'retry', reason: 'webhook answered 500', status: 500 })).toBe('failing');
    expect(healthAfterFailure({ kind: 'drop', reason: 'x', status: 413 })).toBe('failing');
    expect(healthAfterFailure({ kind: 'disable', reason: 'x', status: 410 })).toBe('disabled');
  });
});
