// @a2a/client: a Fetch-based A2A v1.0 client. Only type imports of `@a2a/core` and its error table
// (`@a2a/core/errors`, a chunk of its own) reach the bundle: no engine, no zod.

export type {
  AgentCard,
  AgentInterface,
  Artifact,
  Message,
  Part,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from '@a2a/core';
export { A2AError, type A2AErrorType, isA2AError } from '@a2a/core/errors';
export { cardUrls, pickInterface, resolveAgentCard, WELL_KNOWN_CARD_PATH } from './card.js';
export { A2AClient, type ListTaskPushNotificationConfigsResponse } from './client.js';
export type { A2AClientOptions, ProtocolPlugin } from './client-options.js';
export { PROTOCOL_VERSION } from './http.js';
export type {
  CallOptions,
  HeadersOption,
  OperationName,
  ProtocolBinding,
  ReconnectOptions,
  RequestInfo,
  SseFrame,
  StreamOptions,
  TransportOptions,
} from './options.js';
export { A2AStream, isFinalEvent } from './stream.js';
export type { StreamOperation, UnaryOperation, Wire, WireEvent } from './wire.js';
