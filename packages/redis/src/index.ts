export type { PushDeliveryState } from '@a2a/core';
export { isConnectionError, storeError } from './errors.js';
export {
  type CreateRedisTaskStoreOptions,
  createRedisTaskStore,
  createTaskStoreFromEnv,
  type RedisTaskStoreSetup,
  type TaskStoreFromEnvOptions,
  type TaskStoreSetup,
} from './from-env.js';
export { type CoordKeys, KeySpace, type OwnerKeys, type TaskKeys } from './keys.js';
export { RedisExecutionCoordinator, type RedisExecutionCoordinatorOptions } from './lease-coordinator.js';
export {
  DEFAULT_FINISHED_TASK_TTL_MS,
  RedisTaskStore,
  type RedisTaskStoreOptions,
} from './redis-task-store.js';
export type { ReplicaWait } from './replica-wait.js';
