import {
  type A2ALogger,
  type ExecutionCoordinator,
  InMemoryTaskStore,
  type PushConfigStore,
  type TaskStore,
} from '@a2a/core';
import { PostgresExecutionCoordinator } from './lease-coordinator.js';
import { migrate } from './migrate.js';
import { PostgresTaskStore } from './postgres-task-store.js';

const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

export interface TaskStoreSetup {
  /** Pass as `taskStore` to `createA2AHandler` (it stores push configs too). */
  taskStore: TaskStore & PushConfigStore;
  /** Pass as `coordinator`; `undefined` for the in-memory store. */
  coordinator: ExecutionCoordinator | undefined;
  /** The durable store when `A2A_DATABASE_URL` is set (push delivery state: `postgres.deliveryState`). */
  postgres: PostgresTaskStore | undefined;
  /** Stops timers and closes connections. */
  close(): Promise<void>;
}

export interface TaskStoreFromEnvOptions {
  /** Where the store's and coordinator's background errors go (see `PostgresTaskStoreOptions.logger`). */
  logger?: A2ALogger;
}

/**
 * The in-memory store by default; PostgreSQL (migrated, listening, with execution leases) when `A2A_DATABASE_URL` is
 * set. `A2A_INSTANCE_ID` names this instance in lease rows; `A2A_LEASE_TTL_MS` sets the lease TTL (default 30 s);
 * `A2A_TASK_RETENTION_MS` how long finished tasks are kept (default 30 days; `0` keeps them forever).
 * Rejects with a clear message when the database is unreachable.
 */
export async function createTaskStoreFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: TaskStoreFromEnvOptions = {},
): Promise<TaskStoreSetup> {
  const url = env.A2A_DATABASE_URL;
  if (!url) {
    return { taskStore: new InMemoryTaskStore(), coordinator: undefined, postgres: undefined, close: async () => {} };
  }
  const retentionMs = Number(env.A2A_TASK_RETENTION_MS ?? THIRTY_DAYS_MS);
  const store = new PostgresTaskStore({
    connection: url,
    ...(options.logger && { logger: options.logger }),
    ...(retentionMs > 0 && { retention: { finishedTaskTtlMs: retentionMs } }),
  });
  const coordinator = new PostgresExecutionCoordinator({
    store,
    ...(options.logger && { logger: options.logger }),
    ...(env.A2A_INSTANCE_ID && { instanceId: env.A2A_INSTANCE_ID }),
    ...(env.A2A_LEASE_TTL_MS && { leaseTtlMs: Number(env.A2A_LEASE_TTL_MS) }),
  });
  try {
    await migrate(store.pool);
    await store.start();
  } catch (error) {
    coordinator.close();
    await store.close();
    throw error;
  }
  return {
    taskStore: store,
    coordinator,
    postgres: store,
    close: async () => {
      coordinator.close();
      await store.close();
    },
  };
}
