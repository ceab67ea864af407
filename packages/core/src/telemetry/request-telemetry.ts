import type { Attributes, Context, Span } from '@opentelemetry/api';
import { isA2AError, toA2AError } from '../errors.js';
import type { StreamResponse } from '../schemas/task.js';
import { ATTR, RPC_SERVICE } from './attributes.js';
import type { RequestTelemetryHandle, RequestTelemetryInit } from './operation-telemetry.js';
import { secondsSince, type Telemetry, telemetry } from './telemetry.js';

type Ids = { taskId?: unknown; contextId?: unknown };

/**
 * The server span and request metrics of one A2A operation, made only when an OpenTelemetry SDK is registered
 * ({@link startRequestTelemetry} returns `undefined` otherwise, and every hook is behind `env.telemetry?.`). The
 * bindings name the operation once they know it; unary calls end with the response, streams when they end.
 */
export class RequestTelemetry implements RequestTelemetryHandle {
  readonly context: Context | undefined;
  private readonly span: Span | undefined;
  private readonly start = performance.now();
  private name: string | undefined;
  private errorType: string | undefined;
  private streaming = false;
  private ended = false;

  constructor(
    private readonly tel: Telemetry,
    private readonly init: RequestTelemetryInit,
  ) {
    const { api, tracer } = tel;
    if (!tracer) return;
    const parent = init.headers
      ? api.propagation.extract(api.context.active(), init.headers, headerGetter)
      : api.context.active();
    const attributes: Attributes = {
      [ATTR.rpcSystem]: init.binding === 'GRPC' ? 'grpc' : init.binding === 'JSONRPC' ? 'jsonrpc' : 'a2a_http_json',
      [ATTR.rpcService]: RPC_SERVICE,
      [ATTR.binding]: init.binding,
      [ATTR.protocolVersion]: init.version ?? '1.0',
    };
    if (init.tenant) attributes[ATTR.tenant] = init.tenant;
    if (init.httpMethod) attributes[ATTR.httpMethod] = init.httpMethod;
    if (init.path) attributes[ATTR.urlPath] = init.path;
    if (init.origin) Object.assign(attributes, addressAttributes(init.origin));
    this.span = tracer.startSpan(`${RPC_SERVICE}/${init.binding}`, { kind: api.SpanKind.SERVER, attributes }, parent);
    this.context = api.trace.setSpan(parent, this.span);
  }

  /** Runs the dispatch with the server span active, so the engine's spans (executor, push, store) nest under it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.context ? this.tel.api.context.with(this.context, fn) : fn();
  }

  /** The v1.0 operation being served, and the ids its params name. */
  operation(name: string, params: unknown): void {
    this.name = name;
    const p = params as { id?: unknown; taskId?: unknown; contextId?: unknown; message?: Ids; tenant?: unknown };
    const byId = name === 'GetTask' || name === 'CancelTask' || name === 'SubscribeToTask' ? p.id : undefined;
    this.ids({ taskId: p.taskId ?? byId ?? p.message?.taskId, contextId: p.contextId ?? p.message?.contextId });
    if (this.span && typeof p.tenant === 'string' && p.tenant) this.span.setAttribute(ATTR.tenant, p.tenant);
  }

  /** The method name as the caller sent it (a legacy wire's `message/send`, with the version it was read as). */
  method(method: string, version?: string): void {
    this.span?.setAttribute(ATTR.method, method);
    if (version) this.span?.setAttribute(ATTR.protocolVersion, version);
    this.name ??= method;
  }

  /** A unary result: its task's ids (a new task's id is known only now). */
  result(value: unknown): void {
    const r = value as { task?: { id?: unknown; contextId?: unknown }; message?: Ids; id?: unknown; status?: unknown };
    if (r?.task) this.ids({ taskId: r.task.id, contextId: r.task.contextId });
    else if (r?.message) this.ids(r.message);
    else if (r?.status !== undefined) this.ids({ taskId: r.id, contextId: (r as Ids).contextId });
  }

  /** The operation failed with this error (anything else is answered as Internal). */
  fail(error: unknown): void {
    const a2a = toA2AError(error);
    this.errorType = a2a.type;
    const span = this.span;
    if (!span) return;
    span.setAttribute(ATTR.errorType, a2a.type);
    span.setAttribute(ATTR.errorCode, a2a.code);
    if (this.init.binding === 'JSONRPC') span.setAttribute(ATTR.jsonRpcErrorCode, a2a.code);
    // Server-side faults mark the span as failed; a client's bad request is an answer, not a fault (as for HTTP 4xx).
    if (a2a.httpStatus >= 500) {
      if (!isA2AError(error) && error instanceof Error) span.recordException(error);
      span.setStatus({ code: this.tel.api.SpanStatusCode.ERROR, message: a2a.message });
    }
  }

  /** Follows a stream: its events become span events and count; the span ends when the stream does. */
  async *stream(events: AsyncGenerator<StreamResponse>): AsyncGenerator<StreamResponse> {
    this.streaming = true;
    const metrics = this.tel.metrics;
    const operation = this.name ?? 'unknown';
    metrics?.openStreams.add(1, { [ATTR.operation]: operation });
    try {
      for await (const event of events) {
        this.event(event, operation);
        yield event;
      }
    } catch (error) {
      this.fail(error);
      throw error;
    } finally {
      metrics?.openStreams.add(-1, { [ATTR.operation]: operation });
      this.end();
    }
  }

  /** The response is out: a unary operation ends here, a stream goes on until its last event. */
  finish(response: Response | undefined): void {
    if (response) {
      this.span?.setAttribute(ATTR.httpStatus, response.status);
      if (!this.errorType && response.status >= 400) this.errorType = String(response.status);
    }
    if (!this.streaming) this.end();
  }

  private event(event: StreamResponse, operation: string): void {
    const e = event as Partial<Record<'task' | 'message' | 'statusUpdate' | 'artifactUpdate', Ids & object>>;
    const kind = e.statusUpdate ? 'statusUpdate' : e.artifactUpdate ? 'artifactUpdate' : e.task ? 'task' : 'message';
    this.tel.metrics?.streamEvents.add(1, { [ATTR.operation]: operation, [ATTR.eventKind]: kind });
    const span = this.span;
    if (!span) return;
    const attributes: Attributes = { [ATTR.eventKind]: kind };
    if (e.task) this.ids({ taskId: (e.task as { id?: unknown }).id, contextId: e.task.contextId });
    else if (e.message) this.ids(e.message);
    const state = (e.statusUpdate as { status?: { state?: unknown } } | undefined)?.status?.state ?? undefined;
    if (typeof state === 'string') attributes[ATTR.taskState] = state;
    span.addEvent('a2a.stream.event', attributes);
  }

  private ids({ taskId, contextId }: Ids): void {
    const span = this.span;
    if (!span) return;
    if (typeof taskId === 'string' && taskId) span.setAttribute(ATTR.taskId, taskId);
    if (typeof contextId === 'string' && contextId) span.setAttribute(ATTR.contextId, contextId);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    const operation = this.name ?? 'unknown';
    if (this.span) {
      this.span.setAttribute(ATTR.rpcMethod, operation);
      this.span.setAttribute(ATTR.operation, operation);
      this.span.updateName(`${RPC_SERVICE}/${operation}`);
      this.span.end();
    }
    const metrics = this.tel.metrics;
    if (!metrics) return;
    const attributes: Attributes = {
      [ATTR.operation]: operation,
      [ATTR.binding]: this.init.binding,
      [ATTR.outcome]: this.errorType ? 'error' : 'success',
    };
    if (this.errorType) attributes[ATTR.errorType] = this.errorType;
    metrics.requests.add(1, attributes);
    metrics.requestDuration.record(secondsSince(this.start), attributes);
  }
}

/** The telemetry of one request, or `undefined` (no cost beyond this call) when no SDK is registered. */
export function startRequestTelemetry(init: RequestTelemetryInit): RequestTelemetry | undefined {
  const tel = telemetry();
  return tel && new RequestTelemetry(tel, init);
}

/** `server.address`, `server.port` and `url.scheme` of a URL (never its path or query, which may hold secrets). */
export function addressAttributes(href: string): Attributes {
  try {
    const url = new URL(href);
    const scheme = url.protocol.slice(0, -1);
    const port = Number(url.port) || (scheme === 'https' ? 443 : 80);
    return { [ATTR.serverAddress]: url.hostname, [ATTR.serverPort]: port, [ATTR.urlScheme]: scheme };
  } catch {
    return {};
  }
}

const headerGetter = {
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
  keys: (carrier: Headers) => [...carrier.keys()],
};
