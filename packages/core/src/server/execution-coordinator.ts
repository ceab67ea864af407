/**
 * Where executions run, for deployments with several instances on one durable store. The request handler reports
 * every execution it starts; a coordinator can hold a lease for it (so another instance fails the task if this one
 * dies) and abort it when a CancelTask arrives on another instance. The default does nothing: one process needs none.
 */
export interface ExecutionCoordinator {
  /**
   * An execution started on this instance. Must not throw; `release()` is called once when it is done. `handOver`:
   * it stopped at shutdown and its task could not be failed (store unreachable): let another instance's janitor end
   * the task as soon as it can, without waiting for the lease to expire.
   */
  track(execution: TrackedExecution): ExecutionLease;
  /** CancelTask found no execution of the task here: reach the instance that runs it, if any. */
  requestCancel(taskId: string): Promise<void>;
}

/** What `track` returns: the execution's lease, let go once when it is done. */
export interface ExecutionLease {
  release(handOver?: boolean): void;
}

export interface TrackedExecution {
  readonly taskId: string;
  /** Aborts the executor's signal (and calls the executor's `cancel()` hook). */
  abort(reason: string): void;
}

export const localExecutionCoordinator: ExecutionCoordinator = {
  track: () => ({ release: () => {} }),
  requestCancel: async () => {},
};
