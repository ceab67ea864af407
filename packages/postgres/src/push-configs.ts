import type { PushDeliveryState, TaskPushNotificationConfig } from '@a2a/core';
import type pg from 'pg';
import { fromKey, toKey } from './text-key.js';

/** The store's query: a lost or refused connection becomes A2A `Unavailable` (503). */
export type StoreQuery = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

/**
 * Push notification configs in `a2a_push_configs`, with each config's delivery state (cursor, health, failures), for
 * {@link PostgresTaskStore}, which exposes them as core's `PushConfigStore` and `PushDeliveryStateStore`. A config's
 * delivery cursor starts at the task's version when it is saved.
 */
export class PgPushConfigs {
  constructor(private readonly query: StoreQuery) {}

  async save(config: TaskPushNotificationConfig): Promise<void> {
    const { rowCount } = await this.query(
      `INSERT INTO a2a_push_configs (task_id, id, config, last_delivered_seq)
       SELECT t.id, $2, $3::json, t.version FROM a2a_tasks t WHERE t.id = $1
       ON CONFLICT (task_id, id) DO UPDATE SET config = EXCLUDED.config`,
      [toKey(config.taskId), toKey(config.id), JSON.stringify(config)],
    );
    if (!rowCount) throw new Error(`Task ${config.taskId} does not exist`);
  }

  async get(taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
    const { rows } = await this.query<{ config: TaskPushNotificationConfig }>(
      'SELECT config FROM a2a_push_configs WHERE task_id = $1 AND id = $2',
      [toKey(taskId), toKey(id)],
    );
    return rows[0]?.config;
  }

  async list(taskId: string): Promise<TaskPushNotificationConfig[]> {
    const { rows } = await this.query<{ config: TaskPushNotificationConfig }>(
      'SELECT config FROM a2a_push_configs WHERE task_id = $1 ORDER BY created_at, id',
      [toKey(taskId)],
    );
    return rows.map((r) => r.config);
  }

  async delete(taskId: string, id: string): Promise<void> {
    await this.query('DELETE FROM a2a_push_configs WHERE task_id = $1 AND id = $2', [toKey(taskId), toKey(id)]);
  }

  /** Push delivery state (core's `PushDeliveryStateStore`): `undefined` until the sender first records progress. */
  readonly deliveryState = {
    get: async (taskId: string, configId: string): Promise<PushDeliveryState | undefined> => {
      const { rows } = await this.query<{
        last_delivered_seq: string;
        health: PushDeliveryState['health'] | null;
        consecutive_failures: number;
        last_error: string | null;
      }>(
        'SELECT last_delivered_seq, health, consecutive_failures, last_error FROM a2a_push_configs WHERE task_id = $1 AND id = $2',
        [toKey(taskId), toKey(configId)],
      );
      const row = rows[0];
      if (!row?.health) return undefined;
      return {
        lastDeliveredSeq: Number(row.last_delivered_seq),
        health: row.health,
        consecutiveFailures: row.consecutive_failures,
        ...(row.last_error !== null && { lastError: row.last_error }),
      };
    },
    /** The cursor never moves backwards (two instances delivering the same config cannot undo progress). */
    set: async (taskId: string, configId: string, state: PushDeliveryState): Promise<void> => {
      await this.query(
        `UPDATE a2a_push_configs SET last_delivered_seq = GREATEST(last_delivered_seq, $3), health = $4,
                consecutive_failures = $5, last_error = $6 WHERE task_id = $1 AND id = $2`,
        [
          toKey(taskId),
          toKey(configId),
          state.lastDeliveredSeq,
          state.health,
          state.consecutiveFailures,
          state.lastError ?? null,
        ],
      );
    },
  };

  /** Tasks with an enabled push config behind the log: what a sender resumes after a restart (`watch(taskId)`). */
  async pendingTasks(limit = 1000): Promise<string[]> {
    const { rows } = await this.query<{ task_id: string }>(
      `SELECT DISTINCT p.task_id FROM a2a_push_configs p JOIN a2a_tasks t ON t.id = p.task_id
        WHERE p.last_delivered_seq < t.version AND p.health IS DISTINCT FROM 'disabled' LIMIT $1`,
      [limit],
    );
    return rows.map((r) => fromKey(r.task_id));
  }
}
