export * from './compat/index.js';
export * from './errors.js';
export { isJsonContentType, readBodyBytes, readBodyText } from './http/body.js';
export {
  type A2AHandlerOptions,
  type A2AHttpHandler,
  type A2ARequestContext,
  createA2AHandler,
  type HandleOptions,
  type MountableHandler,
  requestedVersion,
} from './http/create-handler.js';
export { dataFrame, errorEventFrame, SSE_HEADERS } from './http/sse.js';
export * from './push/index.js';
export * from './schemas/index.js';
export type * from './server/agent-executor.js';
export {
  type ExecutionCoordinator,
  localExecutionCoordinator,
  type TrackedExecution,
} from './server/execution-coordinator.js';
export { OPERATIONS, type Operation, type OperationEnv, type OperationName } from './server/operations.js';
export {
  A2ARequestHandler,
  type AgentCardInput,
  createRequestHandler,
  ownerOf,
  type RequestHandlerOptions,
} from './server/request-handler.js';
export { parseEventId, seqOf, toStreamResponse, withSeq } from './server/stream-response.js';
export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from './store/in-memory-task-store.js';
export * from './store/task-store.js';
export * from './task-state.js';
