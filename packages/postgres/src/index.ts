export { isConnectionError, storeError } from './errors.js';
export { createTaskStoreFromEnv, type TaskStoreFromEnvOptions, type TaskStoreSetup } from './from-env.js';
export {
  CANCEL_CHANNEL,
  PostgresExecutionCoordinator,
  type PostgresExecutionCoordinatorOptions,
} from './lease-coordinator.js';
export { migrate } from './migrate.js';
export {
  EVENTS_CHANNEL,
  PostgresTaskStore,
  type PostgresTaskStoreOptions,
  type PushDeliveryState,
} from './postgres-task-store.js';
