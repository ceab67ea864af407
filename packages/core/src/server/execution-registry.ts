import type { TaskStore } from '../store/task-store.js';
import { isInterrupted, isTerminal } from '../task-state.js';
import type { A2ALog } from '../telemetry/logger.js';
import type { AgentExecutor } from './agent-executor.js';
import { endsTurn } from './call-stream.js';
import type { Execution } from './execution.js';
import { type ExecutionCoordinator, localExecutionCoordinator } from './execution-coordinator.js';
import { retryOnConflict, retryWhileUnavailable } from './store-retry.js';
import type { Subscription } from './task-subscription.js';

/** A shutdown's failing write that keeps losing races to the agent's own writes gives up after this many. */
const ABANDON_ATTEMPTS = 50;

export interface ExecutionRegistryOptions {
  store: TaskStore;
  executor: AgentExecutor;
  coordinator: ExecutionCoordinator;
  log: A2ALog;
  /** The handler's monotonic clock (status timestamps). */
  now: () => string;
  /** How long a task is read again while the store is unavailable. */
  storeRetryMs: number;
}

/**
 * What a request handler has running: its executions (with their leases) and its clients' open streams, and how
 * they end at shutdown. The operations start work; this is where that work is found again (a cancel) and let go.
 */
export class ExecutionRegistry {
  /**
   * The running executions in the first `#running` slots, each knowing its slot (`trackedAt`): one is taken out by
   * moving the last into its slot. Not a Map by task id: an execution per SendMessage comes and goes, and a Map
   * allocates a new table as deleted entries fill it and again when a delete shrinks it, plus an array per key; the
   * array here never shrinks (issue 39, docs/performance.md "Hot-path tricks"). A cancel, which is rare, scans it.
   */
  readonly #executions: (Execution | undefined)[] = [];
  #running = 0;
  /** Open client streams, ended by {@link close}. */
  readonly #streams = new Set<Subscription>();
  #closed: Promise<void> | undefined;
  #onDrained: (() => void) | undefined;

  constructor(private readonly options: ExecutionRegistryOptions) {}

  /** The executions of a task running on this instance, oldest first (a copy: aborting one removes it). */
  forTask(taskId: string): Execution[] {
    const found: Execution[] = [];
    for (let i = 0; i < this.#running; i++) {
      const execution = this.#executions[i] as Execution;
      if (execution.taskId === taskId) found.push(execution);
    }
    return found.sort((a, b) => a.began - b.began);
  }

  /** Whether {@link close} was called. */
  get closing(): boolean {
    return this.#closed !== undefined;
  }

  /**
   * Tracks the execution, then starts it: holds its lease until its turn is over, it is aborted, or it can no longer
   * write. Tracked first, so the task an agent creates in `execute()`'s synchronous part is created after that.
   */
  start(execution: Execution): void {
    const { coordinator, executor, log } = this.options;
    this.#track(execution);
    // The local coordinator holds no lease: no tracked view and no closure for it (issue 39, docs/performance.md).
    if (coordinator !== localExecutionCoordinator) {
      execution.lease = coordinator.track({
        taskId: execution.taskId,
        abort: (reason) => {
          execution.abort(reason);
          Promise.resolve(executor.cancel?.(execution)).catch((error: unknown) => log.error(error));
        },
      });
    }
    // Forget the execution once its task is finished or it returned with the task waiting for the client, or once it
    // is aborted (canceled, or it gave up on an unavailable store): no lease outlives an execution that cannot write.
    execution.holder = this;
    try {
      execution.start();
    } catch (error) {
      this.release(execution);
      throw error;
    }
    // Handlers shared by every execution (`settled` resolves to it): no closure per execution. It never rejects but
    // for a tracing span's end that throws, which is only logged.
    void (execution.settled as Promise<Execution>).then(this.#settled, this.#unsettled);
  }

  /**
   * Lets go of a running execution and its lease, once (an untracked execution is released): after its turn, when
   * it is aborted, or when {@link start} failed. The registry's state lives on the execution (`trackedAt`, `lease`),
   * not in three closures per execution (issue 39, docs/performance.md "Per request").
   */
  release(execution: Execution, handOver?: boolean): void {
    if (execution.trackedAt < 0) return;
    this.#untrack(execution);
    execution.lease.release(handOver);
    if (this.#running === 0) this.#onDrained?.();
  }

  /** An execution's failure to settle (its error report threw): reported, and the execution released. */
  failed(execution: Execution, error: unknown): void {
    this.options.log.error(error, { taskId: execution.taskId });
    this.release(execution);
  }

  readonly #unsettled = (error: unknown): void => this.options.log.error(error);

  readonly #settled = (execution: Execution): void => {
    try {
      // Its own last event left the task finished or waiting for the client: no read needed (and no async frame:
      // the common case settles here, docs/performance.md "Hot-path tricks").
      const last = execution.lastState;
      if (last && (isTerminal(last) || isInterrupted(last))) this.release(execution);
      else this.#releaseWhenDone(execution).catch((error: unknown) => this.failed(execution, error));
    } catch (error) {
      this.failed(execution, error);
    }
  };

  #track(execution: Execution): void {
    execution.trackedAt = this.#running;
    this.#executions[this.#running++] = execution;
  }

  /** Only for a tracked execution (`release` checks). */
  #untrack(execution: Execution): void {
    const at = execution.trackedAt;
    execution.trackedAt = -1;
    const last = --this.#running;
    const moved = this.#executions[last] as Execution;
    this.#executions[last] = undefined; // (no `pop`: emptied, an array drops its backing store)
    if (moved !== execution) {
      this.#executions[at] = moved;
      moved.trackedAt = at;
    }
  }

  /** After `execute()` returned with the task still running (background work): release when the task finishes. */
  async #releaseWhenDone(execution: Execution): Promise<void> {
    const { taskId } = execution;
    // Read through a store outage, for up to `storeRetryMs`.
    const stored = execution.stored
      ? await retryWhileUnavailable(this.options.storeRetryMs, () => this.options.store.get(taskId))
      : undefined;
    const state = stored?.task.status.state;
    if (!stored || !state || isTerminal(state) || isInterrupted(state)) return this.release(execution);
    for await (const record of this.options.store.subscribe(taskId, stored.version, execution.signal)) {
      if (endsTurn(record)) break;
    }
    this.release(execution);
  }

  /** An open client stream, ended by {@link close} (at once when close() ran while the call was starting). */
  follow(subscription: Subscription): void {
    this.#streams.add(subscription);
    if (this.#closed) subscription.close();
  }

  /** A stream's end (its subscription already closed). */
  readonly unfollow = (subscription: Subscription): void => {
    this.#streams.delete(subscription);
  };

  /**
   * Ends the open streams, gives running executions `timeoutMs` to finish, then aborts the rest and fails their
   * tasks. Idempotent.
   */
  close(timeoutMs: number): Promise<void> {
    this.#closed ??= this.#shutDown(timeoutMs);
    return this.#closed;
  }

  async #shutDown(timeoutMs: number): Promise<void> {
    for (const stream of this.#streams) stream.close();
    this.#streams.clear();
    if (this.#running > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.#onDrained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#onDrained = undefined;
    }
    const left = this.#executions.slice(0, this.#running) as Execution[];
    await Promise.all(left.map((execution) => this.#abandon(execution)));
  }

  /** Stops an execution that outlived the shutdown deadline and fails its task if it was still running. */
  async #abandon(execution: Execution): Promise<void> {
    const { store, now, log } = this.options;
    execution.holder = undefined; // released below, once its task is failed
    execution.abort('The server is shutting down');
    let handOver = false;
    try {
      await retryOnConflict(ABANDON_ATTEMPTS, async () => {
        const stored = await store.get(execution.taskId);
        const state = stored?.task.status.state;
        if (!stored || (state !== 'TASK_STATE_SUBMITTED' && state !== 'TASK_STATE_WORKING')) return;
        await store.append(execution.taskId, stored.version, {
          kind: 'status',
          status: {
            state: 'TASK_STATE_FAILED',
            timestamp: now(),
            message: execution.agentMessage('The agent was shut down before the task finished'),
          },
        });
      });
    } catch (error) {
      // The store is unreachable: the lease is handed over, so another instance's janitor fails the task.
      log.error(error, { taskId: execution.taskId });
      handOver = true;
    }
    this.release(execution, handOver);
  }
}
