import type { Attributes, Context, Span } from '@opentelemetry/api';
import { ATTR } from './attributes.js';
import { addressAttributes } from './request-telemetry.js';
import { injectTraceHeaders, secondsSince, type Telemetry, telemetry } from './telemetry.js';

export interface PushAttemptInfo {
  url: string;
  taskId: string;
  configId: string;
  seq: number;
  /** 1 for the first attempt. */
  attempt: number;
}

/**
 * One webhook POST as a client span (`POST`, with the webhook's host and port but never its path, query or token)
 * and its duration metric. The outgoing request carries the span's `traceparent`.
 */
export class PushAttemptTelemetry {
  private readonly span: Span | undefined;
  private readonly context: Context | undefined;
  private readonly start = performance.now();

  constructor(
    private readonly tel: Telemetry,
    info: PushAttemptInfo,
  ) {
    const { api, tracer } = tel;
    if (!tracer) return;
    const attributes: Attributes = {
      [ATTR.httpMethod]: 'POST',
      ...addressAttributes(info.url),
      [ATTR.taskId]: info.taskId,
      [ATTR.pushConfigId]: info.configId,
      [ATTR.pushSeq]: info.seq,
    };
    if (info.attempt > 1) attributes[ATTR.resendCount] = info.attempt - 1;
    this.span = tracer.startSpan('POST', { kind: api.SpanKind.CLIENT, attributes });
    this.context = api.trace.setSpan(api.context.active(), this.span);
  }

  /** Sets `traceparent` on the notification. */
  inject(headers: Headers): void {
    if (this.context) this.tel.api.context.with(this.context, () => injectTraceHeaders(this.tel.api, headers));
  }

  /** Runs the POST with the span active (an HTTP client instrumentation nests under it). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.context ? this.tel.api.context.with(this.context, fn) : fn();
  }

  /** The attempt's outcome: `ok`, `retry`, `drop` or `disable`, with the status when the webhook answered. */
  end(outcome: { kind: string; status?: number | undefined; reason?: string | undefined }): void {
    const failed = outcome.kind !== 'ok';
    const errorType = failed ? (outcome.status !== undefined ? String(outcome.status) : outcome.kind) : undefined;
    if (this.span) {
      if (outcome.status !== undefined) this.span.setAttribute(ATTR.httpStatus, outcome.status);
      if (errorType) {
        this.span.setAttribute(ATTR.errorType, errorType);
        this.span.setStatus({ code: this.tel.api.SpanStatusCode.ERROR, message: outcome.reason ?? outcome.kind });
      }
      this.span.end();
    }
    const attributes: Attributes = { [ATTR.outcome]: outcome.kind };
    if (outcome.status !== undefined) attributes[ATTR.httpStatus] = outcome.status;
    this.tel.metrics?.pushAttemptDuration.record(secondsSince(this.start), attributes);
  }
}

export function startPushAttempt(info: PushAttemptInfo): PushAttemptTelemetry | undefined {
  const tel = telemetry();
  return tel && new PushAttemptTelemetry(tel, info);
}

/** A notification delivered, or given up on after its retries. */
export function countPushDelivery(delivered: boolean, attributes: Attributes = {}): void {
  const metrics = telemetry()?.metrics;
  if (delivered) metrics?.pushDeliveries.add(1, attributes);
  else metrics?.pushFailures.add(1, attributes);
}
