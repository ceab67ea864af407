/** The two v1.0 bindings this client speaks, as the card names them in `supportedInterfaces[].protocolBinding`. */
export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON';

/** The v1.0 operations, by their JSON-RPC method names. */
export type OperationName =
  | 'SendMessage'
  | 'SendStreamingMessage'
  | 'GetTask'
  | 'ListTasks'
  | 'CancelTask'
  | 'SubscribeToTask'
  | 'CreateTaskPushNotificationConfig'
  | 'GetTaskPushNotificationConfig'
  | 'ListTaskPushNotificationConfigs'
  | 'DeleteTaskPushNotificationConfig'
  | 'GetExtendedAgentCard';

/** What the `headers` hook is told about the request it adds headers to. */
export interface RequestInfo {
  /** The operation, or `'GetAgentCard'` for the card fetch. */
  operation: OperationName | 'GetAgentCard';
  url: string;
}

/** Static headers, or a hook that computes them per request (a fresh bearer token, a signature...). */
export type HeadersOption = HeadersInit | ((info: RequestInfo) => HeadersInit | Promise<HeadersInit>);

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the request; for a stream, also closes it and releases the connection. */
  signal?: AbortSignal;
  /** Headers for this call only (added after the client's). */
  headers?: HeadersInit;
  /** This call's {@link TransportOptions.timeoutMs} (unary calls). */
  timeoutMs?: number;
}

/** Options of streaming calls. */
export interface StreamOptions extends Omit<CallOptions, 'timeoutMs'> {
  /** Resume after this SSE event id (SubscribeToTask): the agent replays only the events after it. */
  lastEventId?: string;
  /** This stream's {@link TransportOptions.idleTimeoutMs}. */
  idleTimeoutMs?: number;
}

export interface ReconnectOptions {
  /** Reconnections in a row without receiving an event before the stream fails (default 5). */
  attempts?: number;
  /** Delay before the first reconnection, doubled each time up to `maxDelayMs` (default 250). */
  delayMs?: number;
  /** Default 5000. */
  maxDelayMs?: number;
}

/** One SSE message as received, before it is read as an A2A event (for wire logs). */
export interface SseFrame {
  operation: OperationName;
  url: string;
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface TransportOptions {
  /** The fetch to use (default: the global one). Wrap it to log, retry or sign requests. */
  fetch?: typeof fetch;
  /** Headers for every request, e.g. `{ authorization: 'Bearer ...' }` or a hook returning them. */
  headers?: HeadersOption;
  /** Called with every SSE message received, in order. */
  onFrame?: (frame: SseFrame) => void;
  /**
   * Unary calls and the card fetch: the most the whole answer may take, body included, in ms (default 30 000; 0: no
   * limit). Past it the call rejects with `A2AError('Unavailable')`.
   */
  timeoutMs?: number;
  /**
   * Streams: the longest silence before the response headers or between two reads (keep-alive comments count), in
   * ms (default 60 000; 0: no limit). Past it the connection counts as broken: the stream reconnects, or rejects
   * with `A2AError('Unavailable')`.
   */
  idleTimeoutMs?: number;
  /** The largest JSON body read, in bytes (default 8 MiB); a larger one is `A2AError('InvalidAgentResponse')`. */
  maxBodyBytes?: number;
  /** The largest SSE event read, in bytes (default 1 MiB); a larger one is `A2AError('InvalidAgentResponse')`. */
  maxEventBytes?: number;
  /**
   * `'same-origin'` (default): follow redirects within the origin of the URL asked (307/308, and 301/302/303 for
   * GET), at most 5. `'none'`: follow none. A redirect to another origin is never followed: it is
   * `A2AError('InvalidAgentResponse')`, so neither the body nor any header reaches that origin.
   */
  redirects?: 'same-origin' | 'none';
}
