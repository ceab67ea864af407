import type { Span } from '@opentelemetry/api';
import type { TaskState } from '../schemas/task.js';
import type { TaskEvent } from '../task-state.js';
import { ATTR } from './attributes.js';
import { type Telemetry, telemetry } from './telemetry.js';

/** The span `execute()` runs in (a child of the request's server span); the task's events are its span events. */
export class ExecutorSpan {
  constructor(
    private readonly tel: Telemetry,
    private readonly span: Span,
  ) {}

  /** Runs `fn` with this span active; ends the span when it settles. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const { api } = this.tel;
    const context = api.trace.setSpan(api.context.active(), this.span);
    return api.context.with(context, fn).finally(() => this.span.end());
  }

  /** `execute()` threw. */
  fail(error: unknown): void {
    if (error instanceof Error) this.span.recordException(error);
    this.span.setStatus({
      code: this.tel.api.SpanStatusCode.ERROR,
      message: String((error as Error)?.message ?? error),
    });
  }

  /** An event the execution stored. */
  event(event: TaskEvent, state: TaskState): void {
    if (event.kind === 'status') this.span.addEvent('a2a.task.status', { [ATTR.taskState]: state });
    else if (event.kind === 'artifact') {
      this.span.addEvent('a2a.task.artifact', { 'a2a.artifact.id': event.artifact.artifactId });
    }
  }
}

/** `undefined` when no tracer provider is registered. */
/** What the span reads of the executor's context (`AgentContext` of server/, named here by shape: telemetry sits below). */
export interface TracedExecution {
  readonly taskId: string;
  readonly contextId: string;
  readonly protocolVersion: string;
  readonly tenant: string | undefined;
}

export function startExecutorSpan(context: TracedExecution): ExecutorSpan | undefined {
  const tel = telemetry();
  const tracer = tel?.tracer;
  if (!tel || !tracer) return undefined;
  const attributes: Record<string, string> = {
    [ATTR.taskId]: context.taskId,
    [ATTR.contextId]: context.contextId,
    [ATTR.protocolVersion]: context.protocolVersion,
  };
  if (context.tenant) attributes[ATTR.tenant] = context.tenant;
  const span = tracer.startSpan('a2a.execute', { kind: tel.api.SpanKind.INTERNAL, attributes });
  return new ExecutorSpan(tel, span);
}
