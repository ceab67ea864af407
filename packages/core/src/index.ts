export * from './errors.js';
export * from './schemas/index.js';
export * from './task-state.js';
export * from './store/task-store.js';
export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from './store/in-memory-task-store.js';
export type * from './server/agent-executor.js';
export { A2ARequestHandler, createRequestHandler, ownerOf, type AgentCardInput, type RequestHandlerOptions } from './server/request-handler.js';
export { OPERATIONS, type Operation, type OperationEnv, type OperationName } from './server/operations.js';
export { parseEventId, seqOf, toStreamResponse, withSeq } from './server/stream-response.js';
export { type ExecutionCoordinator, type TrackedExecution, localExecutionCoordinator } from './server/execution-coordinator.js';
export {
  createA2AHandler,
  requestedVersion,
  type A2AHandlerOptions,
  type A2AHttpHandler,
  type A2ARequestContext,
  type HandleOptions,
} from './http/create-handler.js';
export { isJsonContentType, readBodyText } from './http/body.js';
export { SSE_HEADERS, dataFrame, errorEventFrame } from './http/sse.js';
export * from './push/index.js';
export * from './compat/index.js';
