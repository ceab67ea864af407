import { A2AService } from '@a2a/grpc';
import { fromBinary, fromJson, type JsonValue, toBinary, toJson } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { createParser } from 'eventsource-parser';

// The calls an ACTS runner makes, over each binding of a running SUT: real requests (HTTP, SSE, HTTP/2), answers
// unwrapped to the A2A object the way ACTS's assertion root is (§4.2). For the tests of apps/tck-sut only.

/** Answers are read as loosely as a runner reads them. */
export type Json = Record<string, any>;

export const VALID = { authorization: 'Bearer itk-valid-token' };
export const INSUFFICIENT = { authorization: 'Bearer itk-insufficient-token' };

export type Operation =
  | 'SendMessage'
  | 'GetTask'
  | 'CancelTask'
  | 'GetExtendedAgentCard'
  | 'CreateTaskPushNotificationConfig';
export type StreamOperation = 'SendStreamingMessage' | 'SubscribeToTask';

/** An answer: the A2A object, or the error (`code`: JSON-RPC code, HTTP status or gRPC status; `status`: HTTP). */
export type Outcome = { ok: true; value: Json } | { ok: false; code: number; message: string; status?: number };

export interface ActsWire {
  name: 'jsonrpc' | 'rest' | 'grpc';
  call(operation: Operation, params: Json, headers?: Record<string, string>): Promise<Outcome>;
  /** Every event of a stream, to its end; or the error it began with. */
  stream(operation: StreamOperation, params: Json, headers?: Record<string, string>): Promise<Json[] | Outcome>;
  close(): void;
}

const base = { 'a2a-version': '1.0' };

/** The user message ACTS's tests send: text first, then any other parts; a fresh messageId, as the runner makes. */
export const userMessage = (text: string, more: Json = {}, parts: Json[] = []) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }, ...parts], ...more },
});

async function sseEvents(response: Response, unwrap: (data: Json) => Json): Promise<Json[]> {
  const events: Json[] = [];
  const parser = createParser({ onEvent: (e) => events.push(unwrap(JSON.parse(e.data))) });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return events;
}

export function jsonRpcWire(url: string): ActsWire {
  let id = 0;
  const post = (method: string, params: Json, headers: Record<string, string>, accept = 'application/json') =>
    fetch(`${url}/`, {
      method: 'POST',
      headers: { ...base, 'content-type': 'application/json', accept, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
  const outcome = (body: Json, status: number): Outcome =>
    body.error
      ? { ok: false, code: body.error.code, message: body.error.message, status }
      : { ok: true, value: body.result };
  return {
    name: 'jsonrpc',
    async call(operation, params, headers = VALID) {
      const response = await post(operation, params, headers);
      return outcome(await response.json(), response.status);
    },
    async stream(operation, params, headers = VALID) {
      const response = await post(operation, params, headers, 'text/event-stream');
      if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
        return outcome(await response.json(), response.status);
      }
      return sseEvents(response, (data) => data.result ?? data);
    },
    close() {},
  };
}

const REST: Record<Operation | StreamOperation, (p: Json) => { method: string; path: string; body?: Json }> = {
  SendMessage: (p) => ({ method: 'POST', path: '/message:send', body: p }),
  SendStreamingMessage: (p) => ({ method: 'POST', path: '/message:stream', body: p }),
  GetTask: (p) => ({
    method: 'GET',
    path: `/tasks/${p.id}${p.historyLength === undefined ? '' : `?historyLength=${p.historyLength}`}`,
  }),
  CancelTask: (p) => ({ method: 'POST', path: `/tasks/${p.id}:cancel`, body: {} }),
  SubscribeToTask: (p) => ({ method: 'GET', path: `/tasks/${p.id}:subscribe` }),
  GetExtendedAgentCard: () => ({ method: 'GET', path: '/extendedAgentCard' }),
  CreateTaskPushNotificationConfig: ({ taskId, ...config }) => ({
    method: 'POST',
    path: `/tasks/${taskId}/pushNotificationConfigs`,
    body: config,
  }),
};

export function restWire(url: string): ActsWire {
  const send = (operation: Operation | StreamOperation, params: Json, headers: Record<string, string>) => {
    const { method, path, body } = REST[operation](params);
    return fetch(`${url}${path}`, {
      method,
      headers: { ...base, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  };
  const failure = async (response: Response): Promise<Outcome> => {
    const body = await response.json();
    return { ok: false, code: response.status, message: body.error?.message, status: response.status };
  };
  return {
    name: 'rest',
    async call(operation, params, headers = VALID) {
      const response = await send(operation, params, headers);
      return response.ok ? { ok: true, value: await response.json() } : failure(response);
    },
    async stream(operation, params, headers = VALID) {
      const response = await send(operation, params, headers);
      return response.ok ? sseEvents(response, (data) => data) : failure(response);
    },
    close() {},
  };
}

/** gRPC with the contract's descriptors (proto JSON in and out, as ACTS writes its params). */
export function grpcWire(address: string): ActsWire {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const method = (name: string) => {
    const found = A2AService.methods.find((m) => m.name === name);
    if (!found) throw new Error(`no gRPC method ${name}`);
    return found;
  };
  const metadata = (headers: Record<string, string>) => {
    const m = new grpc.Metadata();
    for (const [k, v] of Object.entries({ ...base, ...headers })) m.set(k, v);
    return m;
  };
  const codec = (name: string) => ({
    serialize: (json: Json) =>
      Buffer.from(toBinary(method(name).input, fromJson(method(name).input, json as JsonValue))),
    deserialize: (bytes: Buffer) => toJson(method(name).output, fromBinary(method(name).output, bytes)) as Json,
  });
  const failed = (error: grpc.ServiceError): Outcome => ({ ok: false, code: error.code, message: error.details });
  return {
    name: 'grpc',
    call(operation, params, headers = VALID) {
      const { serialize, deserialize } = codec(operation);
      return new Promise((resolve) =>
        client.makeUnaryRequest(
          `/lf.a2a.v1.A2AService/${operation}`,
          serialize,
          deserialize,
          params,
          metadata(headers),
          (error, value) => resolve(error ? failed(error) : { ok: true, value: value as Json }),
        ),
      );
    },
    stream(operation, params, headers = VALID) {
      const { serialize, deserialize } = codec(operation);
      const call = client.makeServerStreamRequest(
        `/lf.a2a.v1.A2AService/${operation}`,
        serialize,
        deserialize,
        params,
        metadata(headers),
      );
      const events: Json[] = [];
      return new Promise((resolve) => {
        call.on('data', (event: Json) => events.push(event));
        call.on('error', (error: grpc.ServiceError) => resolve(events.length ? events : failed(error)));
        call.on('end', () => resolve(events));
      });
    },
    close: () => client.close(),
  };
}

/** The value of a successful outcome (fails the test with the error otherwise). */
export function ok(outcome: Outcome): Json {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

/** The events of a stream that opened (fails the test with the error otherwise). */
export function okEvents(outcome: Outcome | Json[]): Json[] {
  if (Array.isArray(outcome)) return outcome;
  throw new Error(`expected a stream, got ${outcome.ok ? 'a value' : `${outcome.code}: ${outcome.message}`}`);
}

/** Polls GetTask until `done` holds for the task (or the time runs out). */
export async function pollTask(wire: ActsWire, id: string, done: (task: Json) => boolean, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    const task = ok(await wire.call('GetTask', { id }));
    if (done(task) || Date.now() > until) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const isTerminal = (task: Json) =>
  ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'].includes(
    task.status?.state,
  );

export type ActsBinding = 'jsonrpc' | 'rest' | 'grpc';

/** The client of one binding for a running SUT (gRPC on its second port). */
export function wireFor(binding: ActsBinding, sut: { url: string; grpcAddress?: string | undefined }): ActsWire {
  if (binding === 'jsonrpc') return jsonRpcWire(sut.url);
  return binding === 'rest' ? restWire(sut.url) : grpcWire(sut.grpcAddress ?? '');
}
