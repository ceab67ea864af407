// The public API: what an app that serves or calls an A2A agent needs (handler, executor, stores, push, card signing,
// errors, the protocol's types). Zod schemas of the protocol objects: `@a2a/core/schemas`. What adapter authors need
// beyond this: `@a2a/core/adapter` (and `@a2a/core/node` on Node). Building blocks for the sibling packages (wire
// translators, SSE framing, body readers, proto-JSON helpers): `@a2a/core/internal`, outside semver.

export type { CardSigningKey, CardVerification, CardVerificationKeys } from './card/card-signing.js';
export { signAgentCard, verifyAgentCard } from './card/card-signing-on-demand.js';
export type { CardSigningOptions, CardVariant } from './card/versioned-card-routes.js';
export type { DialectName } from './compat/dialects/dialect.js';
export { SERVED_VERSIONS, type VersionPolicy } from './compat/negotiate.js';
export type { LegacyVersion } from './compat/shape.js';
export { type A2AHttpHandler, createA2AHandler } from './handler/create-handler.js';
export type {
  A2AEngineOptions,
  A2AHandlerOptions,
  A2APreparedEngineOptions,
  A2ATransportOptions,
} from './handler/handler-options.js';
export { checkMountable } from './http/check-mountable.js';
export type { HealthOptions } from './http/health.js';
export type {
  A2ARequestContext,
  HandleOptions,
  HandlerMount,
  MountableHandler,
} from './http/mountable-handler.js';
export * from './public-errors.js';
export {
  InMemoryPushDeliveryStateStore,
  type PushConfigHealth,
  type PushDeliveryState,
  type PushDeliveryStateStore,
} from './push/delivery-state.js';
export type { PushNotificationHook } from './push/push-hook.js';
export {
  createPushSender,
  type DeliveryFailure,
  type DeliverySuccess,
  defaultPushSerializer,
  type PushPayload,
  PushSender,
  type PushSenderOptions,
  type PushSerializer,
} from './push/push-sender.js';
export {
  BODY_HASH_CLAIM,
  generatePushSigningKey,
  type JsonWebKeySet,
  PushSigner,
  type PushSignerOptions,
  type PushSigningKey,
  SIGNATURE_HEADER,
} from './push/push-signer.js';
export type { RetryPolicy } from './push/retry-policy.js';
export {
  BlockedAddressError,
  createPushUrlValidator,
  type HostResolver,
  PushUrlGuard,
  type PushUrlPolicy,
} from './push/ssrf-guard.js';
export { standardWebhooksSignature } from './push/standard-webhooks.js';
export type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from './schemas/agent-card.js';
export type { Message, Part, Role } from './schemas/message.js';
export type {
  AuthenticationInfo,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigInput,
} from './schemas/push-config.js';
export type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageConfiguration,
  SendMessageRequest,
  SubscribeToTaskRequest,
} from './schemas/requests.js';
export type {
  Artifact,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from './schemas/task.js';
export type { AgentCardInput } from './server/agent-card-input.js';
export type * from './server/agent-executor.js';
export type { ExecutionCoordinator, TrackedExecution } from './server/execution-coordinator.js';
export { A2ARequestHandler, createRequestHandler } from './server/request-handler.js';
export type { CloseOptions, RequestHandlerOptions } from './server/request-handler-options.js';
export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from './store/in-memory-task-store.js';
export * from './store/task-store.js';
export * from './task-state.js';
export { type A2ALogger, consoleLogger, type LogFields } from './telemetry/logger.js';
export { useOpenTelemetry } from './telemetry/use-open-telemetry.js';
