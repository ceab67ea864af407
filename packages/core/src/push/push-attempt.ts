import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { PushAttemptTelemetry } from '../telemetry/push-span.js';
import { deadlineSignal } from './deadline-signal.js';
import { type NotificationSigning, notificationHeaders, type OutgoingNotification } from './push-headers.js';
import { type AttemptOutcome, type ResolvedRetryPolicy, responseOutcome } from './retry-policy.js';
import type { PushUrlGuard } from './ssrf-guard.js';

/** What every attempt of one sender shares. */
export interface PushAttemptContext {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  guard: PushUrlGuard | undefined;
  signing: NotificationSigning;
  retry: ResolvedRetryPolicy;
  timeoutMs: number;
  /** The sender's shutdown: aborts the attempt in flight. */
  closed: AbortSignal;
}

/**
 * One POST of a notification, bounded by `timeoutMs`, with redirects left unfollowed. Never throws: a URL the guard
 * refuses (now or at connect time) disables the config, a network error or timeout is retried, and an answer is
 * classified by `responseOutcome`.
 */
export async function attemptPush(
  ctx: PushAttemptContext,
  config: TaskPushNotificationConfig,
  notification: OutgoingNotification,
  trace: PushAttemptTelemetry | undefined,
): Promise<AttemptOutcome> {
  let headers: Headers;
  try {
    // Checked again at send time: configs may come from a store another process wrote.
    if (ctx.guard) {
      await ctx.guard.ready();
      ctx.guard.checkUrl(config.url);
    }
    headers = await notificationHeaders(config, notification, ctx.signing);
  } catch (error) {
    return { kind: 'disable', reason: errorMessage(error) };
  }
  trace?.inject(headers);
  const deadline = deadlineSignal(ctx.closed, ctx.timeoutMs);
  let response: Response;
  try {
    const init: RequestInit = {
      method: 'POST',
      headers,
      body: notification.body as Uint8Array<ArrayBuffer>,
      redirect: 'manual',
      signal: deadline.signal,
    };
    response = await (trace ? trace.run(() => ctx.fetch(config.url, init)) : ctx.fetch(config.url, init));
  } catch (error) {
    if (isBlockedAddress(error)) return { kind: 'disable', reason: errorMessage(error) };
    return {
      kind: 'retry',
      reason: deadline.timedOut ? `timed out after ${ctx.timeoutMs} ms` : errorMessage(error),
    };
  } finally {
    deadline.dispose();
  }
  // Only the status matters: never buffer what a receiver sends back.
  void response.body?.cancel().catch(() => {});
  return responseOutcome(response.status, response.headers.get('retry-after'), ctx.retry);
}

const errorMessage = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
};

/** The guarded transport's connect-time refusal, bare or as the cause of fetch's TypeError. */
const isBlockedAddress = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'BlockedAddressError' ||
    (error.cause instanceof Error && error.cause.name === 'BlockedAddressError'));
