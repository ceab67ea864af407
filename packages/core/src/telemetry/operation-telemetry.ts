import type { StreamResponse } from '../schemas/task.js';

/**
 * What the bindings and the operations table tell a request's telemetry (`RequestTelemetry` implements it). Free of
 * `@opentelemetry/api` types on purpose: `OperationEnv` names it, so it is part of the published declarations, and an
 * app without the optional peer must still type-check them (`skipLibCheck: false`).
 */
export interface OperationTelemetry {
  /** The v1.0 operation being served, and the ids its params name. */
  operation(name: string, params: unknown): void;
  /** The method name as the caller sent it (a legacy wire's `message/send`, with the version it was read as). */
  method(method: string, version?: string): void;
  /** A unary result: its task's ids. */
  result(value: unknown): void;
  /** The operation failed with this error. */
  fail(error: unknown): void;
  /** Follows a stream; the request's span ends when the stream does. */
  stream(events: AsyncGenerator<StreamResponse>): AsyncGenerator<StreamResponse>;
}
