import { randomUUID } from 'node:crypto';
import {
  type A2ALogger,
  type ExecutionCoordinator,
  isTerminal,
  type TaskState,
  type TrackedExecution,
} from '@a2a/core';
import { A2ALog, failLostTask, LocalExecutions } from '@a2a/core/internal';
import { LOG_FIELDS } from './log-fields.js';
import type { PostgresTaskStore } from './postgres-task-store.js';
import { fromKey, toKey } from './text-key.js';

export const CANCEL_CHANNEL = 'a2a_task_cancel';

export interface PostgresExecutionCoordinatorOptions {
  store: PostgresTaskStore;
  /** Names this process in lease rows. Default: a random id. */
  instanceId?: string;
  /** A lease not renewed for this long means its instance is gone. Renewed every ttl/3. Default 30 s. */
  leaseTtlMs?: number;
  /**
   * Where the heartbeat's and janitor's errors go, pino's shape: `logger.error({ err, component: 'a2a/postgres' },
   * msg)`. Default: core's console logger.
   */
  logger?: A2ALogger;
  /** Errors of the heartbeat and janitor (takes precedence over `logger`). */
  onError?: (error: unknown) => void;
}

/**
 * Execution leases and cross-instance cancel on PostgreSQL. Each running execution holds a lease row renewed every
 * ttl/3; a janitor on every instance moves the running tasks of an expired lease to FAILED ("executor lost") with a
 * version-checked append, so two janitors cannot both act. CancelTask on an instance that does not run the task
 * sends a NOTIFY; the instance that runs it aborts the executor's signal. The heartbeat also aborts local executions
 * whose task was finished elsewhere (a cancel whose NOTIFY was lost).
 *
 * After a database outage nobody could renew, so every lease may look expired when the database returns: the janitor
 * acts only once its own heartbeat has been reaching the database for a full lease TTL (also after start-up), which
 * gives the live owners time to renew first.
 */
export class PostgresExecutionCoordinator implements ExecutionCoordinator {
  readonly instanceId: string;
  readonly leaseTtlMs: number;
  private readonly store: PostgresTaskStore;
  private readonly local: LocalExecutions;
  /** Released leases whose DELETE failed (database unreachable): the heartbeat deletes them when it can. */
  private readonly unreleased = new Set<string>();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly log: A2ALog;
  private ticking = false;
  /** When the heartbeat's queries started succeeding again (start-up or the end of an outage); `undefined`: failing. */
  private connectedSince: number | undefined;

  constructor(options: PostgresExecutionCoordinatorOptions) {
    this.store = options.store;
    this.instanceId = options.instanceId ?? randomUUID();
    this.leaseTtlMs = options.leaseTtlMs ?? 30_000;
    this.log = new A2ALog(options.logger, options.onError);
    this.local = new LocalExecutions(
      // Batched: rides with the task's first write. The heartbeat retries a failure.
      (taskId) =>
        void this.store.writes
          .lease({ id: toKey(taskId), instanceId: this.instanceId, ttlMs: this.leaseTtlMs })
          .catch(() => {}),
      // Handed over (stopped at shutdown, task not finished): expired at once, so the next janitor tick of any
      // instance fails the task. Either way, a write that fails leaves an orphan lease that expires and is reaped
      // (by this instance too); the janitor leaves finished or waiting tasks alone.
      (taskId, handOver) =>
        void this.store.writes.lease({ id: toKey(taskId), instanceId: this.instanceId, handOver }).catch(() => {
          if (!handOver) this.unreleased.add(taskId);
        }),
    );
    this.store.listen(CANCEL_CHANNEL, (key) => this.local.abort(fromKey(key), 'Task canceled'));
    this.timer = setInterval(() => void this.tick(), Math.max(10, Math.floor(this.leaseTtlMs / 3)));
    this.timer.unref?.();
  }

  track(execution: TrackedExecution): { release(handOver?: boolean): void } {
    return this.local.track(execution);
  }

  async requestCancel(taskId: string): Promise<void> {
    await this.store.query('SELECT pg_notify($1, $2)', [CANCEL_CHANNEL, toKey(taskId)]);
  }

  /** Executions running here (tests). */
  get runningCount(): number {
    return this.local.size;
  }

  close(): void {
    clearInterval(this.timer);
  }

  /**
   * One heartbeat: renew this instance's leases, stop executions whose task finished elsewhere, reap dead leases
   * (once connected for a full TTL).
   */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      if (this.unreleased.size) await this.deleteUnreleased();
      const ids = this.local.taskIds();
      if (ids.length) {
        await this.renew(ids);
        this.connectedSince ??= Date.now();
        const { rows } = await this.store.query<{ id: string; state: TaskState }>(
          'SELECT id, state FROM a2a_tasks WHERE id = ANY($1)',
          [ids.map(toKey)],
        );
        for (const row of rows) if (isTerminal(row.state)) this.local.abort(fromKey(row.id), `Task is ${row.state}`);
      }
      await this.reap();
    } catch (error) {
      if (isUnavailable(error)) this.connectedSince = undefined;
      else this.log.error(error, { ...LOG_FIELDS, instanceId: this.instanceId }, 'lease heartbeat failed');
    } finally {
      this.ticking = false;
    }
  }

  private async deleteUnreleased(): Promise<void> {
    const ids = [...this.unreleased];
    // A task running here again has a live lease: keep it.
    const stale = ids.filter((id) => !this.local.has(id));
    await this.store.query('DELETE FROM a2a_execution_leases WHERE task_id = ANY($1) AND instance_id = $2', [
      stale.map(toKey),
      this.instanceId,
    ]);
    for (const id of ids) this.unreleased.delete(id);
  }

  private async renew(taskIds: string[]): Promise<void> {
    await this.store.query(
      `INSERT INTO a2a_execution_leases (task_id, instance_id, expires_at)
       SELECT id, $2, now() + $3 * interval '1 millisecond' FROM unnest($1::text[]) AS id
       ON CONFLICT (task_id) DO UPDATE SET instance_id = EXCLUDED.instance_id, expires_at = EXCLUDED.expires_at`,
      [taskIds.map(toKey), this.instanceId, this.leaseTtlMs],
    );
  }

  /**
   * Leases expired for more than one heartbeat: their instance is gone (or, for this instance's own, their release
   * could not be written). Also running tasks without a lease (their instance died between storing the task and its
   * first lease write, or their execution gave up) once untouched for two TTLs.
   */
  private async reap(): Promise<void> {
    const { rows } = await this.store.query<{ task_id: string; instance_id: string }>(
      `SELECT task_id, instance_id FROM a2a_execution_leases
        WHERE expires_at < now() - $1 * interval '1 millisecond' AND NOT (instance_id = $2 AND task_id = ANY($4))
       UNION ALL
       SELECT t.id, '(no lease)' FROM a2a_tasks t
        WHERE t.state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')
          AND t.updated_at < now() - $3 * interval '1 millisecond'
          AND NOT EXISTS (SELECT 1 FROM a2a_execution_leases l WHERE l.task_id = t.id)
       LIMIT 100`,
      [Math.floor(this.leaseTtlMs / 3), this.instanceId, 2 * this.leaseTtlMs, this.local.taskIds().map(toKey)],
    );
    // Connected again (or just started): owners get a full TTL to renew before their leases count as dead.
    this.connectedSince ??= Date.now();
    if (Date.now() - this.connectedSince < this.leaseTtlMs) return;
    for (const lease of rows) {
      const holder = lease.instance_id === '(no lease)' ? undefined : lease.instance_id;
      // Moved: another janitor or the task itself wrote first; the next tick looks again.
      if ((await failLostTask(this.store, fromKey(lease.task_id), holder)) === 'moved') continue;
      await this.store.query('DELETE FROM a2a_execution_leases WHERE task_id = $1 AND instance_id = $2', [
        lease.task_id,
        lease.instance_id,
      ]);
    }
  }
}

const isUnavailable = (error: unknown) => (error as { type?: string } | null)?.type === 'Unavailable';
