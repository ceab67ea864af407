import type { StreamResponse } from '@a2a/core';
import type { CallOptions, OperationName, StreamOptions } from './options.js';

/** One event of a stream with its SSE id (the agent's sequence number, for resuming). */
export interface WireEvent {
  id: string | undefined;
  event: StreamResponse;
}

export type StreamOperation = 'SendStreamingMessage' | 'SubscribeToTask';
export type UnaryOperation = Exclude<OperationName, StreamOperation>;

/** How one binding carries the operations. */
export interface Wire {
  unary(operation: UnaryOperation, params: Record<string, unknown>, options: CallOptions): Promise<unknown>;
  /** Resolves once the agent accepted the stream (errors before that reject); then yields its events. */
  stream(
    operation: StreamOperation,
    params: Record<string, unknown>,
    options: StreamOptions,
  ): Promise<AsyncGenerator<WireEvent>>;
}
