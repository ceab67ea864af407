import type { Deadline } from './deadline.js';
import { fromJsonRpcError, fromStatusError, invalidResponse } from './errors.js';
import { isEventStream, PROTOCOL_VERSION, readJson, send } from './http.js';
import { callDeadline, maxBodyBytes, maxEventBytes, streamDeadline } from './limits.js';
import type { CallOptions, OperationName, StreamOptions, TransportOptions } from './options.js';
import { isStreamResponse } from './shapes.js';
import { frameReporter, readSseJson } from './sse.js';
import type { StreamOperation, UnaryOperation, Wire, WireEvent } from './wire.js';

let nextId = 0;

/** How one protocol version names the methods and shapes params and results (v1.0: as they are). */
export interface JsonRpcDialect {
  /** Sent as `A2A-Version`. */
  version: string;
  method(operation: OperationName): string;
  params(operation: OperationName, params: Record<string, unknown>): unknown;
  /** The result as the v1.0 object the client returns. */
  result(operation: OperationName, result: unknown): unknown;
  /** A stream result as a v1.0 StreamResponse. */
  event(result: unknown): unknown;
}

const V1: JsonRpcDialect = {
  version: PROTOCOL_VERSION,
  method: (operation) => operation,
  params: (_operation, params) => params,
  result: (_operation, result) => result,
  event: (result) => result,
};

/** The JSON-RPC 2.0 binding: one POST per call to the interface URL, the method named like the operation. */
export class JsonRpcWire implements Wire {
  constructor(
    private readonly url: string,
    private readonly transport: TransportOptions,
    private readonly dialect: JsonRpcDialect = V1,
  ) {}

  private post(
    operation: OperationName,
    params: Record<string, unknown>,
    options: CallOptions,
    accept: string,
    deadline: Deadline,
    last?: string,
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept };
    if (last !== undefined) headers['last-event-id'] = last;
    return send(
      this.transport,
      { operation, url: this.url },
      {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++nextId,
          method: this.dialect.method(operation),
          params: this.dialect.params(operation, params),
        }),
        callHeaders: options.headers,
      },
      deadline,
      this.dialect.version,
    );
  }

  async unary(operation: UnaryOperation, params: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const deadline = callDeadline(this.transport, options, operation);
    try {
      const response = await this.post(operation, params, options, 'application/json', deadline);
      const body = await readJson(response, maxBodyBytes(this.transport), deadline);
      return this.dialect.result(operation, resultOf(response.status, body));
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
      const response = await this.post(operation, params, options, 'text/event-stream', deadline, options.lastEventId);
      if (!isEventStream(response) || !response.body) {
        // An early error answered as plain JSON (or something that is not a stream at all).
        resultOf(response.status, await readJson(response, maxBodyBytes(this.transport), deadline));
        throw invalidResponse(`${operation} answered ${response.headers.get('content-type') ?? 'no content type'}`);
      }
      return this.events(operation, response.body, deadline);
    } catch (error) {
      deadline.stop();
      throw error;
    }
  }

  private async *events(
    operation: StreamOperation,
    body: ReadableStream<Uint8Array>,
    deadline: Deadline,
  ): AsyncGenerator<WireEvent> {
    const seen = frameReporter(this.transport, operation, this.url);
    try {
      for await (const message of readSseJson(body, seen, maxEventBytes(this.transport), deadline)) {
        const event = this.dialect.event(resultOf(200, message.json));
        if (!isStreamResponse(event)) throw invalidResponse('a stream event that is not a StreamResponse');
        yield { id: message.id, event };
      }
    } finally {
      deadline.stop();
    }
  }
}

/** The `result` of a JSON-RPC response, or its `error` thrown as an A2AError. */
function resultOf(status: number, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw status >= 400 ? fromStatusError(status, body) : invalidResponse('not a JSON-RPC response');
  }
  const envelope = body as Record<string, unknown>;
  if ('error' in envelope && envelope.error != null) throw fromJsonRpcError(envelope.error);
  if (!('result' in envelope)) {
    throw status >= 400 ? fromStatusError(status, body) : invalidResponse('a JSON-RPC response without a result');
  }
  return envelope.result;
}
