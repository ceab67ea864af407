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

/**
 * One execution of the SDK executor: its applier (this object: one record per execution, not an applier and a record
 * that points at it, docs/performance.md, "SDK executors…", ninth round) and its bus, kept on its context while it
 * runs so a cancel finds them.
 */
class Running<E> extends EventApplier {
  /** Set at once after construction (the bus's sink needs this applier first). */
  bus!: CompatEventBus<E>;
  /** `execute()` returned; what a cancel waits on for that is made only when one does. */
  done = false;
  private returnWait: { settled: Promise<void>; settle: (() => void) | undefined } | undefined;

  /** Settle the promise `execute` returned. */
  resolve: () => void = noop;
  reject: (error: unknown) => void = noop;

  /** Resolves once `execute()` returned (what a cancel waits on, beside the task's end). */
  get returned(): Promise<void> {
    if (this.returnWait === undefined) {
      const wait: { settled: Promise<void>; settle: (() => void) | undefined } = {
        settled: Promise.resolve(),
        settle: undefined,
      };
      if (!this.done) wait.settled = new Promise((resolve) => (wait.settle = resolve));
      this.returnWait = wait;
    }
    return this.returnWait.settled;
  }

  /**
   * The executor's `execute()` returned: ends now when every helper call it caused has settled, else when the applier
   * next has none in flight ({@link onIdle}). One promise per execution, settled from here, instead of an async
   * frame and its awaits, or a drain promise that the promise `execute` returned would adopt (docs/performance.md,
   * "SDK executors…", sixth round).
   */
  executed(): void {
    if (this.idle) this.onIdle();
    else this.awaitsIdle = true;
  }

  /** Every helper call settled after `execute()` returned: ends, rejecting with the first failed call's error. */
  protected override onIdle(): void {
    try {
      this.finish();
      this.throwFailure();
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve();
  }

  /** `execute()` threw or rejected. */
  threw(error: unknown): void {
    try {
      this.finish();
    } catch (thrown) {
      this.reject(thrown);
      return;
    }
    this.reject(error);
  }

  /** As the SDK does once `execute` returns: the bus is settled, its 'finished' listeners run. */
  finish(): void {
    this.bus.finished();
    (this.ctx as RunningContext<E>)[RUNNING] = undefined;
    this.done = true;
    this.returnWait?.settle?.();
  }
}

/** Our executor around an SDK one: one bus per execution, kept while it runs so a cancel reaches the same bus. */
export function runSdkExecution<E>(options: SdkExecutorOptions, generation: SdkGeneration<E>): AgentExecutor {
  const report = options.onIgnoredEvent ?? warn;
  const cancelTimeoutMs = options.cancelTimeoutMs ?? 5000;
  return {
    execute(ctx: RunningContext<E>) {
      const run = new Running<E>(ctx, report);
      run.bus = generation.makeBus(run);
      ctx[RUNNING] = run;
      let executing: Promise<void>;
      try {
        // (An executor that is not an async function may return nothing.)
        executing = Promise.resolve(generation.execute(ctx, run.bus));
      } catch (error) {
        run.finish();
        return Promise.reject(error);
      }
      return new Promise<void>((resolve, reject) => {
        run.resolve = resolve;
        run.reject = reject;
        executing.then(
          () => run.executed(),
          (error: unknown) => run.threw(error),
        );
      });
    },
    async cancel(ctx: RunningContext<E>) {
      const run = ctx[RUNNING];
      const applier = run ?? new EventApplier(ctx, report);
      const bus = run?.bus ?? generation.makeBus(applier);
      await generation.cancel(ctx.taskId, bus);
      if (run && !applier.finished) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, cancelTimeoutMs);
        });
        await Promise.race([run.returned, applier.ended, timeout]);
        clearTimeout(timer);
      }
      await applier.drain().catch(() => {});
    },
  };
}
