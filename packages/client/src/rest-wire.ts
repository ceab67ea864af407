import type { Deadline } from './deadline.js';
import { fromStatusError, invalidResponse } from './errors.js';
import { isEventStream, readJson, send } from './http.js';
import { callDeadline, maxBodyBytes, maxEventBytes, streamDeadline } from './limits.js';
import type { CallOptions, OperationName, StreamOptions, TransportOptions } from './options.js';
import { isStreamResponse } from './shapes.js';
import { frameReporter, readSseJson } from './sse.js';
import type { StreamOperation, UnaryOperation, Wire, WireEvent } from './wire.js';

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** The JSON body (POST) or query parameters (GET, DELETE) left after the path took its fields. */
  rest: Record<string, unknown>;
}

const segment = (value: unknown): string => encodeURIComponent(String(value ?? ''));

/** Where each operation goes (spec v1.0 HTTP+JSON); path fields are taken out of the params. */
function route(operation: OperationName, params: Record<string, unknown>): Route {
  const { tenant: _, ...p } = params;
  const { id, taskId, ...withoutIds } = p;
  switch (operation) {
    case 'SendMessage':
      return { method: 'POST', path: '/message:send', rest: p };
    case 'SendStreamingMessage':
      return { method: 'POST', path: '/message:stream', rest: p };
    case 'GetTask':
      return { method: 'GET', path: `/tasks/${segment(id)}`, rest: withoutIds };
    case 'ListTasks':
      return { method: 'GET', path: '/tasks', rest: p };
    case 'CancelTask':
      return { method: 'POST', path: `/tasks/${segment(id)}:cancel`, rest: withoutIds };
    case 'SubscribeToTask':
      return { method: 'POST', path: `/tasks/${segment(id)}:subscribe`, rest: withoutIds };
    case 'CreateTaskPushNotificationConfig':
      return { method: 'POST', path: `/tasks/${segment(taskId)}/pushNotificationConfigs`, rest: p };
    case 'ListTaskPushNotificationConfigs':
      return { method: 'GET', path: `/tasks/${segment(taskId)}/pushNotificationConfigs`, rest: withoutIds };
    case 'GetTaskPushNotificationConfig':
      return {
        method: 'GET',
        path: `/tasks/${segment(taskId)}/pushNotificationConfigs/${segment(id)}`,
        rest: withoutIds,
      };
    case 'DeleteTaskPushNotificationConfig':
      return {
        method: 'DELETE',
        path: `/tasks/${segment(taskId)}/pushNotificationConfigs/${segment(id)}`,
        rest: withoutIds,
      };
    case 'GetExtendedAgentCard':
      return { method: 'GET', path: '/extendedAgentCard', rest: {} };
  }
}

/** Query parameters the proto-JSON way: scalars as text, repeated fields repeated, nested objects skipped. */
function query(fields: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || typeof item === 'object') continue;
      search.append(key, String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The HTTP+JSON binding: resource paths under the interface URL (and its tenant), errors as google.rpc.Status. */
export class RestWire implements Wire {
  private readonly base: string;

  constructor(
    url: string,
    private readonly transport: TransportOptions,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  private request(
    operation: OperationName,
    params: Record<string, unknown>,
    options: CallOptions & StreamOptions,
    accept: string,
    deadline: Deadline,
  ) {
    const { method, path, rest } = route(operation, params);
    const tenant = typeof params.tenant === 'string' && params.tenant ? `/${segment(params.tenant)}` : '';
    const url = `${this.base}${tenant}${path}${method === 'POST' ? '' : query(rest)}`;
    const headers: Record<string, string> = { accept };
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    return send(
      this.transport,
      { operation, url },
      {
        method,
        headers,
        ...(method === 'POST' ? { body: JSON.stringify(rest) } : {}),
        callHeaders: options.headers,
      },
      deadline,
    );
  }

  async unary(operation: UnaryOperation, params: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const deadline = callDeadline(this.transport, options, operation);
    try {
      const response = await this.request(operation, params, options, 'application/json', deadline);
      const body = await readJson(response, maxBodyBytes(this.transport), deadline);
      if (!response.ok) throw fromStatusError(response.status, body);
      if (typeof body !== 'object' || body === null) throw invalidResponse(`${operation} answered no JSON object`);
      return body;
    } finally {
      deadline.stop();
    }
  }

  async stream(
    operation: StreamOperation,
    params: Record<string, unknown>,
    options: StreamOptions,
  ): Promise<AsyncGenerator<WireEvent>> {
    const deadline = streamDeadline(this.transport, options, operation);
    try {
      const response = await this.request(operation, params, options, 'text/event-stream', deadline);
      if (!response.ok) {
        throw fromStatusError(response.status, await readJson(response, maxBodyBytes(this.transport), deadline));
      }
      if (!isEventStream(response) || !response.body) {
        response.body?.cancel().catch(() => {});
        throw invalidResponse(`${operation} answered ${response.headers.get('content-type') ?? 'no content type'}`);
      }
      return this.events(operation, response.url || this.base, response.body, deadline);
    } catch (error) {
      deadline.stop();
      throw error;
    }
  }

  private async *events(
    operation: StreamOperation,
    url: string,
    body: ReadableStream<Uint8Array>,
    deadline: Deadline,
  ): AsyncGenerator<WireEvent> {
    const seen = frameReporter(this.transport, operation, url);
    try {
      for await (const message of readSseJson(body, seen, maxEventBytes(this.transport), deadline)) {
        const parsed = message.json;
        const error = (parsed as { error?: { code?: unknown } } | null)?.error;
        if (message.event === 'error' || (error && !isStreamResponse(parsed))) {
          throw fromStatusError(typeof error?.code === 'number' ? error.code : 500, parsed);
        }
        if (!isStreamResponse(parsed)) throw invalidResponse('a stream event that is not a StreamResponse');
        yield { id: message.id, event: parsed };
      }
    } finally {
      deadline.stop();
    }
  }
}
