import { fromJsonRpcError, fromStatusError, invalidResponse } from './errors.js';
import { isEventStream, readJson, send } from './http.js';
import type { CallOptions, OperationName, StreamOptions, TransportOptions } from './options.js';
import { frameReporter, readSseJson } from './sse.js';
import { isStreamResponse, type StreamOperation, type UnaryOperation, type Wire, type WireEvent } from './wire.js';

let nextId = 0;

/** The JSON-RPC 2.0 binding: one POST per call to the interface URL, the method named like the operation. */
export class JsonRpcWire implements Wire {
  constructor(
    private readonly url: string,
    private readonly transport: TransportOptions,
  ) {}

  private post(
    method: OperationName,
    params: Record<string, unknown>,
    options: CallOptions,
    accept: string,
    last?: string,
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept };
    if (last !== undefined) headers['last-event-id'] = last;
    return send(
      this.transport,
      { operation: method, url: this.url },
      {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params }),
        signal: options.signal ?? null,
        callHeaders: options.headers,
      },
    );
  }

  async unary(operation: UnaryOperation, params: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const response = await this.post(operation, params, options, 'application/json');
    return resultOf(response.status, await readJson(response));
  }

  async stream(
    operation: StreamOperation,
    params: Record<string, unknown>,
    options: StreamOptions,
  ): Promise<AsyncGenerator<WireEvent>> {
    const response = await this.post(operation, params, options, 'text/event-stream', options.lastEventId);
    if (!isEventStream(response) || !response.body) {
      // An early error answered as plain JSON (or something that is not a stream at all).
      resultOf(response.status, await readJson(response));
      throw invalidResponse(`${operation} answered ${response.headers.get('content-type') ?? 'no content type'}`);
    }
    return this.events(operation, response.body);
  }

  private async *events(operation: StreamOperation, body: ReadableStream<Uint8Array>): AsyncGenerator<WireEvent> {
    const seen = frameReporter(this.transport, operation, this.url);
    for await (const message of readSseJson(body, seen)) {
      const event = resultOf(200, message.json);
      if (!isStreamResponse(event)) throw invalidResponse('a stream event that is not a StreamResponse');
      yield { id: message.id, event };
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
