export { PostgresTaskStore, EVENTS_CHANNEL, type PostgresTaskStoreOptions, type PushDeliveryState } from './postgres-task-store.js';
export { PostgresExecutionCoordinator, CANCEL_CHANNEL, type PostgresExecutionCoordinatorOptions } from './lease-coordinator.js';
export { createTaskStoreFromEnv, type TaskStoreSetup } from './from-env.js';
export { migrate } from './migrate.js';
export { isConnectionError, storeError } from './errors.js';
