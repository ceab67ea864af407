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

/** The A2A binding a request came over (`rpc.system`-like attribute). */
export type A2ABinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

export interface RequestTelemetryInit {
  binding: A2ABinding;
  /** The requested protocol version (`A2A-Version`), when the caller named one. */
  version: string | undefined;
  tenant: string | undefined;
  /** Incoming headers (or gRPC metadata as headers), for `traceparent`. */
  headers?: Headers | undefined;
  httpMethod?: string | undefined;
  path?: string | undefined;
  /** `scheme://host[:port]` the request was sent to. */
  origin?: string | undefined;
}

/** A request's telemetry as a binding drives it: the dispatch runs under its server span, the answer ends it. */
export interface RequestTelemetryHandle extends OperationTelemetry {
  /** Runs the dispatch with the server span active, so the engine's spans nest under it. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** The answer is out (`undefined` for a binding without an HTTP response): a unary call ends here, a stream later. */
  finish(response: Response | undefined): void;
}
