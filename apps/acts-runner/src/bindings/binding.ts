import { randomUUID } from 'node:crypto';
import { isRecord } from '../assertion-engine.js';
import type { WireError } from '../error-table.js';
import type { BindingName, OperationName } from '../grammar.js';

/** The answer of one abstract operation, with the transport framing removed (ACTS §4.2). */
export type CallResult =
  | { ok: true; status: number; body: unknown; headers: Record<string, string> }
  | { ok: false; status: number; error: WireError; headers: Record<string, string> };

/** A stream's events (proto-JSON StreamResponse objects), or the error it was refused or ended with. */
export interface StreamResult {
  status: number;
  events: Record<string, unknown>[];
  error?: WireError;
  /** The stream was still open at the timeout or the event cap. */
  cut?: boolean;
}

export interface CallOptions {
  /** Extra request headers (gRPC: metadata), e.g. `A2A-Version` and `Authorization`. */
  headers: Record<string, string>;
}

export interface StreamOptions extends CallOptions {
  timeoutMs: number;
  /** Stop reading after this many events. */
  maxEvents?: number;
}

export interface BindingClient {
  readonly name: BindingName;
  call(operation: OperationName, params: Record<string, unknown>, options: CallOptions): Promise<CallResult>;
  stream(operation: OperationName, params: Record<string, unknown>, options: StreamOptions): Promise<StreamResult>;
  close(): void;
}

/** v1.0.1 method names (JSON-RPC method = gRPC RPC) of the abstract operations (ACTS §4.1; the spec's names win). */
export const METHODS: Record<OperationName, string> = {
  send_message: 'SendMessage',
  send_streaming_message: 'SendStreamingMessage',
  get_task: 'GetTask',
  list_tasks: 'ListTasks',
  cancel_task: 'CancelTask',
  subscribe_to_task: 'SubscribeToTask',
  get_agent_card: 'GetAgentCard',
  get_extended_agent_card: 'GetExtendedAgentCard',
  create_push_config: 'CreateTaskPushNotificationConfig',
  get_push_config: 'GetTaskPushNotificationConfig',
  list_push_configs: 'ListTaskPushNotificationConfigs',
  delete_push_config: 'DeleteTaskPushNotificationConfig',
};

/**
 * The v1.0.1 request of an abstract operation from ACTS params (§4.3). Send: a message without `messageId` gets a
 * fresh one, and a `taskId` / `contextId` written beside the message (as much of the corpus does) goes into it
 * unless the message names its own. Push configs: `pushNotificationConfig` is flattened into the
 * TaskPushNotificationConfig with `taskId`. Lists: `cursor` is `pageToken`.
 */
export function toRequest(operation: OperationName, params: Record<string, unknown>): Record<string, unknown> {
  const request: Record<string, unknown> = { ...params };
  switch (operation) {
    case 'send_message':
    case 'send_streaming_message': {
      const message = isRecord(params.message) ? { ...params.message } : undefined;
      if (message) {
        for (const key of ['taskId', 'contextId'] as const) {
          if (params[key] !== undefined && message[key] === undefined) message[key] = params[key];
          delete request[key];
        }
        message.messageId ??= randomUUID();
        request.message = message;
      }
      return request;
    }
    case 'list_tasks':
      if (request.cursor !== undefined) {
        request.pageToken ??= request.cursor;
        delete request.cursor;
      }
      return request;
    case 'create_push_config': {
      const config = isRecord(params.pushNotificationConfig) ? params.pushNotificationConfig : {};
      delete request.pushNotificationConfig;
      return { ...config, ...request };
    }
    default:
      return request;
  }
}

export const headerRecord = (headers: Headers): Record<string, string> => Object.fromEntries(headers.entries());
