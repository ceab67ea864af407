import { randomUUID } from 'node:crypto';
import {
  type A2ALogger,
  type ExecutionCoordinator,
  isTerminal,
  type TaskState,
  type TrackedExecution,
} from '@a2a/core';
import { A2ALog, failLostTask, LocalExecutions } from '@a2a/core/internal';
import type { Cluster, Redis } from 'ioredis';
import { LOG_FIELDS } from './log-fields.js';
import type { RedisTaskStore } from './redis-task-store.js';

export interface RedisExecutionCoordinatorOptions {
  store: RedisTaskStore;
  /** Names this process in lease entries. Default: a random id. */
  instanceId?: string;
  /** A lease not renewed for this long means its instance is gone. Renewed every ttl/3. Default 30 s. */
  leaseTtlMs?: number;
  /**
   * Where the heartbeat's and janitor's errors go, pino's shape: `logger.error({ err, component: 'a2a/redis' }, msg)`.
   * Default: core's console logger.
   */
  logger?: A2ALogger;
  /** Errors of the heartbeat and janitor (takes precedence over `logger`). */
  onError?: (error: unknown) => void;
}

/**
 * Execution leases and cross-instance cancel on Redis, with the semantics of `@a2a/postgres`'s coordinator. Each
 * running execution holds a lease (a sorted set scored by expiry on the Redis clock, with the holder in a hash)
 * renewed every ttl/3; a janitor on every instance moves the running tasks of an expired lease to FAILED ("Executor
 * lost: …") with a version-checked append, so two janitors cannot both act. CancelTask on an instance that does not
 * run the task is published on a channel; the instance that runs it aborts the executor's signal. The heartbeat also
 * aborts local executions whose task was finished elsewhere (a cancel whose message was lost: pub/sub is not durable).
 *
 * After an outage nobody could renew, so every lease may look expired when Redis returns: the janitor acts only once
 * its own heartbeat has been reaching Redis for a full lease TTL (also after start-up), which gives the live owners
 * time to renew first.
 */
export class RedisExecutionCoordinator implements ExecutionCoordinator {
  readonly instanceId: string;
  readonly leaseTtlMs: number;
  private readonly store: RedisTaskStore;
  private readonly local: LocalExecutions;
  /** Released leases whose write failed (Redis unreachable): the heartbeat drops them when it can. */
  private readonly unreleased = new Set<string>();
  /** Leases to take and to release, sent once per event-loop turn (see flush). */
  private readonly pendingRenewals = new Set<string>();
  private readonly pendingReleases = new Map<string, boolean>();
  private flushScheduled = false;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly subscriber: Redis | Cluster;
  private readonly log: A2ALog;
  private ticking = false;
  private closed = false;
  /** When the heartbeat's commands started succeeding again (start-up or the end of an outage); `undefined`: failing. */
  private connectedSince: number | undefined;

  constructor(options: RedisExecutionCoordinatorOptions) {
    this.store = options.store;
    this.store.trackRunning = true;
    this.instanceId = options.instanceId ?? randomUUID();
    this.leaseTtlMs = options.leaseTtlMs ?? 30_000;
    this.log = new A2ALog(options.logger, options.onError);
    this.local = new LocalExecutions(
      (taskId) => {
        // A release of the task's previous execution still queued must not drop the lease this one takes.
        this.pendingReleases.delete(taskId);
        this.pendingRenewals.add(taskId);
        this.scheduleFlush();
      },
      (taskId, handOver) => {
        // Handed over (stopped at shutdown, task not finished): expired at once, so the next janitor tick of any
        // instance fails the task. A write that fails leaves an orphan lease that expires and is reaped (by this
        // instance too); the janitor leaves finished or waiting tasks alone.
        this.pendingRenewals.delete(taskId);
        this.pendingReleases.set(taskId, handOver);
        // A hand-over happens at shutdown, when the store may close in this turn: sent now, with any queued ones.
        if (handOver) this.flush();
        else this.scheduleFlush();
      },
    );
    // Pub/sub needs its own connection; ioredis subscribes again after a reconnect (autoResubscribe).
    const client = this.store.client;
    this.subscriber = this.store.cluster
      ? (client as Cluster).duplicate([], {
          lazyConnect: true,
          enableOfflineQueue: true, // it subscribes while connecting (cluster-client.ts)
          redisOptions: { connectionName: 'a2a-cancel' },
        })
      : (client as Redis).duplicate({
          lazyConnect: true,
          commandTimeout: undefined,
          maxRetriesPerRequest: null,
          connectionName: 'a2a-cancel',
        });
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (channel: string, taskId: string) => {
      if (channel === this.store.keys.cancelChannel) this.local.abort(taskId, 'Task canceled');
    });
    this.timer = setInterval(() => void this.tick(), Math.max(10, Math.floor(this.leaseTtlMs / 3)));
    this.timer.unref?.();
  }

  /** Subscribes to the cancel channel (rejects when Redis is unreachable). */
  async start(): Promise<void> {
    await this.subscriber.subscribe(this.store.keys.cancelChannel);
  }

  track(execution: TrackedExecution): { release(handOver?: boolean): void } {
    return this.local.track(execution);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /**
   * Batched leases: the executions that started or ended in one event-loop turn share one RENEW and one RELEASE
   * script (under load, 2 scripts per turn instead of 2 per request; docs/performance.md, "Durable throughput on
   * Redis"). Both were fire-and-forget already, so a turn's delay changes nothing: a failed renew is retried by the
   * heartbeat; a failed release leaves an orphan lease that expires and is reaped (non-handed-over ones are dropped by
   * the next tick).
   */
  private flush(): void {
    const { leases, holders } = this.store.keys.coord();
    if (this.pendingRenewals.size) {
      const ids = [...this.pendingRenewals];
      this.pendingRenewals.clear();
      void this.renew(ids).catch(() => {});
    }
    if (this.pendingReleases.size) {
      const released = [...this.pendingReleases];
      this.pendingReleases.clear();
      const args: string[] = [this.instanceId];
      for (const [id, handOver] of released) args.push(id, handOver ? '1' : '0');
      // Handed over (stopped at shutdown, task not finished): expired at once, so the next janitor tick of any
      // instance fails the task. The janitor leaves finished or waiting tasks alone.
      void this.store.script('a2aRelease', [leases, holders], args).catch(() => {
        for (const [id, handOver] of released) if (!handOver) this.unreleased.add(id);
      });
    }
  }

  async requestCancel(taskId: string): Promise<void> {
    await this.store.call(() => this.store.client.publish(this.store.keys.cancelChannel, taskId));
  }

  /** Executions running here (tests). */
  get runningCount(): number {
    return this.local.size;
  }

  close(): void {
    this.flush(); // what is queued goes out before the store may close
    this.closed = true;
    clearInterval(this.timer);
    this.subscriber.disconnect();
  }

  /**
   * One heartbeat: renew this instance's leases, stop executions whose task finished elsewhere, reap dead leases
   * (once connected for a full TTL).
   */
  async tick(): Promise<void> {
    if (this.ticking || this.closed) return;
    this.ticking = true;
    try {
      if (this.unreleased.size) await this.dropUnreleased();
      const ids = this.local.taskIds();
      if (ids.length) {
        await this.renew(ids);
        this.connectedSince ??= Date.now();
        const states = await Promise.all(
          ids.map((id) => this.store.call(() => this.store.client.hget(this.store.keys.task(id).task, 's'))),
        );
        states.forEach((state, i) => {
          if (state && isTerminal(state as TaskState)) this.local.abort(ids[i] as string, `Task is ${state}`);
        });
      }
      await this.reap();
    } catch (error) {
      if (isUnavailable(error)) this.connectedSince = undefined;
      else this.log.error(error, { ...LOG_FIELDS, instanceId: this.instanceId }, 'lease heartbeat failed');
    } finally {
      this.ticking = false;
    }
  }

  private async renew(taskIds: string[]): Promise<void> {
    const { leases, holders } = this.store.keys.coord();
    await this.store.script('a2aRenew', [leases, holders], [this.instanceId, this.leaseTtlMs, ...taskIds]);
  }

  private async dropUnreleased(): Promise<void> {
    const { leases, holders } = this.store.keys.coord();
    for (const id of [...this.unreleased]) {
      // A task running here again has a live lease: keep it.
      if (!this.local.has(id)) await this.store.script('a2aDropLease', [leases, holders], [id, this.instanceId]);
      this.unreleased.delete(id);
    }
  }

  /**
   * Leases expired for more than one heartbeat: their instance is gone (or, for this instance's own, their release
   * could not be written). Also running tasks without a lease (their instance died between storing the task and its
   * first lease write, or their execution gave up) once their status has not changed for two TTLs.
   */
  private async reap(): Promise<void> {
    const { leases, holders, running } = this.store.keys.coord();
    const reply = (await this.store.script(
      'a2aReap',
      [leases, holders, running],
      [Math.floor(this.leaseTtlMs / 3), 2 * this.leaseTtlMs, 100],
    )) as string[];
    // Connected again (or just started): owners get a full TTL to renew before their leases count as dead.
    this.connectedSince ??= Date.now();
    if (Date.now() - this.connectedSince < this.leaseTtlMs) return;
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const taskId = reply[i] as string;
      const holder = reply[i + 1] as string;
      if (holder === this.instanceId && this.local.has(taskId)) continue; // renewed by the next heartbeat
      const verdict = await failLostTask(this.store, taskId, holder === '' ? undefined : holder);
      // Moved: another janitor or the task itself wrote first; the next tick looks again.
      if (verdict === 'moved') continue;
      // Not running (or gone): no longer a candidate for the "no lease" check either.
      if (verdict === 'not-running') await this.store.script('a2aMarkRunning', [running], [taskId, '0']);
      if (holder !== '') await this.store.script('a2aDropLease', [leases, holders], [taskId, holder]);
    }
  }
}

const isUnavailable = (error: unknown) => (error as { type?: string } | null)?.type === 'Unavailable';
