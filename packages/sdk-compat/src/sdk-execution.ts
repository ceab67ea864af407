import type { AgentContext, AgentExecutor } from '@a2a/core';
import type { CompatEventBus } from './compat-event-bus.js';
import { EventApplier, type IgnoredEventReporter } from './event-applier.js';

export interface SdkExecutorOptions {
  /**
   * How long a CancelTask waits for the executor to wind down after its `cancelTask` returned: until it publishes a
   * final status (its CANCELED, with its own message) or its `execute` returns. Default 5000 ms; the task is CANCELED
   * either way.
   */
  cancelTimeoutMs?: number | undefined;
  /** Where events the executor publishes after the task finished are reported (default: `console.warn`). */
  onIgnoredEvent?: IgnoredEventReporter | undefined;
}

/** What differs between the SDK generations: their bus events, request context and executor methods. */
export interface SdkGeneration<E> {
  /** A bus whose events reach `applier` in publish order. */
  makeBus(applier: EventApplier): CompatEventBus<E>;
  execute(ctx: AgentContext, bus: CompatEventBus<E>): Promise<void>;
  cancel(taskId: string, bus: CompatEventBus<E>): Promise<void>;
}

/**
 * The running execution, kept on its own context (the one the engine hands `cancel`). Not in a long-lived Map keyed
 * by task id: on Node 20 a Map that took and dropped each request's execution made the executions outlive young
 * collections and die in the old generation, ~4 µs of GC per SendMessage. docs/performance.md, "SDK executors
 * through @a2a/sdk-compat".
 */
const RUNNING = Symbol('@a2a/sdk-compat running execution');
type RunningContext<E> = AgentContext & { [RUNNING]?: Running<E> | undefined };

const noop = () => {};

const warn: IgnoredEventReporter = (reason, taskId) => console.warn(`@a2a/sdk-compat: task ${taskId}: ${reason}`);

/** One execution of the SDK executor: its applier and bus, kept on its context while it runs so a cancel finds them. */
class Running<E> {
  /** `execute()` returned; `settled` is made only when a cancel waits for that. */
  done = false;
  settled: Promise<void> | undefined;
  settle: (() => void) | undefined;

  constructor(
    private readonly ctx: RunningContext<E>,
    readonly applier: EventApplier,
    readonly bus: CompatEventBus<E>,
  ) {}

  /** Settle the promise {@link returned} made when helper calls were still in flight. */
  resolve: () => void = noop;
  reject: (error: unknown) => void = noop;

  /**
   * The executor's `execute()` returned: ends now when every helper call it caused has settled (throwing the first
   * failed call's error), else returns a promise settled when the applier next has none in flight (it calls
   * {@link idle}). The promise `execute` returns is the `then` that calls this: with the engine's writes landing as
   * the events are published, no other promise per execution (docs/performance.md, "SDK executors…", tenth round).
   */
  returned(): Promise<void> | undefined {
    if (this.applier.idle) {
      this.end();
      this.applier.throwFailure();
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.applier.whenIdle = this;
    });
  }

  /** Every helper call settled after `execute()` returned: ends, rejecting with the first failed call's error. */
  idle(): void {
    try {
      this.end();
      this.applier.throwFailure();
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve();
  }

  /** `execute()` threw or rejected: ends, and rethrows (or throws what ending threw). */
  threw(error: unknown): never {
    this.end();
    throw error;
  }

  /** As the SDK does once `execute` returns: the bus is settled, its 'finished' listeners run. */
  end(): void {
    this.bus.finished();
    this.ctx[RUNNING] = undefined;
    this.done = true;
    this.settle?.();
  }
}

/** Our executor around an SDK one: one bus per execution, kept while it runs so a cancel reaches the same bus. */
export function runSdkExecution<E>(options: SdkExecutorOptions, generation: SdkGeneration<E>): AgentExecutor {
  const report = options.onIgnoredEvent ?? warn;
  const cancelTimeoutMs = options.cancelTimeoutMs ?? 5000;
  return {
    execute(ctx: RunningContext<E>) {
      const applier = new EventApplier(ctx, report);
      const run = new Running(ctx, applier, generation.makeBus(applier));
      ctx[RUNNING] = run;
      let executing: Promise<void>;
      try {
        // (An executor that is not an async function may return nothing.)
        executing = Promise.resolve(generation.execute(ctx, run.bus));
      } catch (error) {
        run.end();
        return Promise.reject(error);
      }
      return executing.then(
        () => run.returned(),
        (error: unknown) => run.threw(error),
      );
    },
    async cancel(ctx: RunningContext<E>) {
      const run = ctx[RUNNING];
      const applier = run?.applier ?? new EventApplier(ctx, report);
      const bus = run?.bus ?? generation.makeBus(applier);
      await generation.cancel(ctx.taskId, bus);
      if (run && !applier.finished) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, cancelTimeoutMs);
        });
        run.settled ??= run.done ? Promise.resolve() : new Promise((resolve) => (run.settle = resolve));
        await Promise.race([run.settled, applier.ended, timeout]);
        clearTimeout(timer);
      }
      await applier.drain().catch(() => {});
    },
  };
}
