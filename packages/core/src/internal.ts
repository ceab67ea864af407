// Building blocks for this repository's sibling packages (@a2a/grpc, @a2a/postgres, @a2a/webhook-receiver,
// @a2a/playground, @a2a/sdk-compat, @a2a/client/v03): wire translators, the operation table, SSE framing, body
// readers, proto-JSON helpers, error helpers. Not semver-covered, and refused in the six adapters (Biome): they use
// `@a2a/core`, `@a2a/core/adapter` and `@a2a/core/node`. Apps use `@a2a/core` (and `@a2a/core/schemas`).

export { type CardSigningOptions, type CardVariant, VersionedCardRoutes } from './card/versioned-card-routes.js';
export { checkServedVersion, jsonRpcWire } from './compat/negotiate.js';
export { toV01Message, toV01Part, V01View } from './compat/v01-translate.js';
export {
  fromV03AgentCard,
  toSupersetAgentCard,
  toV03AgentCard,
  toV03SecurityScheme,
  V03_PROTOCOL_VERSION,
} from './compat/v03-card.js';
export { v03PushSerializer } from './compat/v03-push.js';
export { fromV03Artifact, fromV03Message, fromV03StreamResult, fromV03Task } from './compat/v03-read.js';
export {
  fromV03PushConfig,
  toV03Artifact,
  toV03Message,
  toV03Part,
  toV03PushConfig,
  toV03SendResult,
  toV03State,
  toV03Status,
  toV03StreamResult,
  toV03Task,
} from './compat/v03-translate.js';
export type * from './compat/v03-types.js';
export { ERROR_DOMAIN, fromZodError, invalidParams, taskNotFound, toA2AError } from './errors.js';
export { isJsonContentType, readBodyBytes, readBodyText, readCapped } from './http/body.js';
export { DEFAULT_MAX_JSON_DEPTH, tooDeepPath } from './http/json-depth.js';
export { authorize } from './http/security.js';
export { dataFrame, errorEventFrame, SSE_HEADERS } from './http/sse.js';
export { loadJose } from './load-jose.js';
export { sha256Base64Url } from './push/push-signer.js';
export { bool, bytes, httpUrl, int32, protoEnum, protoMessage, struct, timestamp } from './schemas/proto-json.js';
export { type WritesNow, writesNow } from './server/execution.js';
export { localExecutionCoordinator } from './server/execution-coordinator.js';
export { failLostTask } from './server/fail-lost-task.js';
export { LocalExecutions } from './server/local-executions.js';
export { parseParams, tenantScoped } from './server/operation-params.js';
export { OPERATIONS, type Operation, type OperationEnv, type OperationName } from './server/operations.js';
export { ownerOf } from './server/request-handler.js';
export { BoundedCache, type BoundedCacheOptions } from './store/bounded-cache.js';
export { type LogReader, LogSubscription } from './store/durable-log-subscription.js';
export { parseEventId, seqOf, toStreamResponse, withSeq } from './store/stream-response.js';
export { startBindingTelemetry } from './telemetry/binding-telemetry.js';
export { A2ALog } from './telemetry/logger.js';
export type { RequestTelemetryHandle } from './telemetry/operation-telemetry.js';
export { instrumentStore } from './telemetry/store-span.js';
