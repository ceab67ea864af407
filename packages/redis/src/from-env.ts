import {
  type A2ALogger,
  type ExecutionCoordinator,
  InMemoryTaskStore,
  type PushConfigStore,
  type TaskStore,
} from '@a2a/core';
import { RedisExecutionCoordinator } from './lease-coordinator.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task-store.js';

export interface RedisTaskStoreSetup {
  /** Pass as `taskStore` to `createA2AHandler` (it stores push configs too). */
  taskStore: TaskStore & PushConfigStore;
  /** Pass as `coordinator`: execution leases and cross-instance cancel. */
  coordinator: ExecutionCoordinator;
  /** The store itself (push delivery state: `redis.deliveryState`). */
  redis: RedisTaskStore;
  /** Stops the heartbeat and the stream tail and closes the connections. */
  close(): Promise<void>;
}

export interface CreateRedisTaskStoreOptions extends RedisTaskStoreOptions {
  /** Names this instance in lease entries. Default: a random id. */
  instanceId?: string;
  /** Execution lease TTL (default 30 s); a dead instance's tasks fail within about 1.3 × TTL. */
  leaseTtlMs?: number;
}

/**
 * The store and its execution coordinator, connected: `createA2AHandler({ ..., taskStore, coordinator })`. Rejects
 * with `@a2a/redis: cannot connect to Redis at host:port: …` when Redis is unreachable. A `url` naming a Redis
 * Cluster node opens the Cluster mode (README, "Redis Cluster").
 */
export async function createRedisTaskStore(options: CreateRedisTaskStoreOptions = {}): Promise<RedisTaskStoreSetup> {
  const { instanceId, leaseTtlMs, ...storeOptions } = options;
  // Connected first: a Cluster node found at start-up opens the store in Cluster mode (RedisTaskStore.connect).
  const store = await RedisTaskStore.connect(storeOptions);
  const coordinator = new RedisExecutionCoordinator({
    store,
    ...(options.logger && { logger: options.logger }),
    ...(options.onError && { onError: options.onError }),
    ...(instanceId && { instanceId }),
    ...(leaseTtlMs && { leaseTtlMs }),
  });
  try {
    await coordinator.start();
  } catch (error) {
    coordinator.close();
    await store.close();
    throw error;
  }
  return {
    taskStore: store,
    coordinator,
    redis: store,
    close: async () => {
      coordinator.close();
      await store.close();
    },
  };
}

export interface TaskStoreSetup {
  /** Pass as `taskStore` to `createA2AHandler` (it stores push configs too). */
  taskStore: TaskStore & PushConfigStore;
  /** Pass as `coordinator`; `undefined` for the in-memory store. */
  coordinator: ExecutionCoordinator | undefined;
  /** The Redis store when `A2A_REDIS_URL` is set. */
  redis: RedisTaskStore | undefined;
  /** Stops timers and closes connections. */
  close(): Promise<void>;
}

export interface TaskStoreFromEnvOptions {
  /** Where the store's and coordinator's background errors go (see `RedisTaskStoreOptions.logger`). */
  logger?: A2ALogger;
}

/**
 * The in-memory store by default; Redis (with execution leases) when `A2A_REDIS_URL` is set. `A2A_INSTANCE_ID` names
 * this instance in lease entries; `A2A_LEASE_TTL_MS` sets the lease TTL (default 30 s); `A2A_TASK_RETENTION_MS` how
 * long finished tasks are kept (default 7 days; `0` keeps them forever); `A2A_REDIS_PREFIX` the key prefix (default
 * `a2a`). Rejects with a clear message when Redis is unreachable.
 */
export async function createTaskStoreFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: TaskStoreFromEnvOptions = {},
): Promise<TaskStoreSetup> {
  const url = env.A2A_REDIS_URL;
  if (!url) {
    return { taskStore: new InMemoryTaskStore(), coordinator: undefined, redis: undefined, close: async () => {} };
  }
  return createRedisTaskStore({
    url,
    ...(options.logger && { logger: options.logger }),
    ...(env.A2A_TASK_RETENTION_MS !== undefined &&
      env.A2A_TASK_RETENTION_MS !== '' && { finishedTaskTtlMs: Number(env.A2A_TASK_RETENTION_MS) }),
    ...(env.A2A_REDIS_PREFIX && { keyPrefix: env.A2A_REDIS_PREFIX }),
    ...(env.A2A_INSTANCE_ID && { instanceId: env.A2A_INSTANCE_ID }),
    ...(env.A2A_LEASE_TTL_MS && { leaseTtlMs: Number(env.A2A_LEASE_TTL_MS) }),
  });
}
