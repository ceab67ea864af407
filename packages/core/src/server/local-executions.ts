import type { ExecutionLease, TrackedExecution } from './execution-coordinator.js';

/**
 * The executions a lease coordinator (`@a2a/postgres`, `@a2a/redis`) runs on this instance, by task. A lease is per
 * task, not per execution: `firstStarted` runs when a task's first execution here starts (take its lease),
 * `lastEnded` when its last one ends (release it; `handOver` as in `ExecutionCoordinator.track`).
 */
export class LocalExecutions {
  private readonly byTask = new Map<string, Set<TrackedExecution>>();

  constructor(
    private readonly firstStarted: (taskId: string) => void,
    private readonly lastEnded: (taskId: string, handOver: boolean) => void,
  ) {}

  track(execution: TrackedExecution): ExecutionLease {
    const { taskId } = execution;
    let set = this.byTask.get(taskId);
    if (!set) {
      set = new Set();
      this.byTask.set(taskId, set);
      this.firstStarted(taskId);
    }
    set.add(execution);
    let released = false;
    return {
      release: (handOver) => {
        if (released) return;
        released = true;
        const current = this.byTask.get(taskId);
        current?.delete(execution);
        if (current?.size !== 0) return;
        this.byTask.delete(taskId);
        this.lastEnded(taskId, handOver === true);
      },
    };
  }

  has(taskId: string): boolean {
    return this.byTask.has(taskId);
  }

  taskIds(): string[] {
    return [...this.byTask.keys()];
  }

  /** Tasks with an execution here. */
  get size(): number {
    return this.byTask.size;
  }

  abort(taskId: string, reason: string): void {
    for (const execution of this.byTask.get(taskId) ?? []) execution.abort(reason);
  }
}
