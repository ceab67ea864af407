import type { PushConfigStore, TaskStore } from '@a2a/core';

/** What the suite asks of each store it creates. */
export interface StoreFactoryOptions {
  /**
   * How long a finished task (COMPLETED, CANCELED, FAILED, REJECTED) stays readable after its last write. The expiry
   * case passes a short one (see {@link TaskStoreSuiteOptions.expiryTtlMs}) and waits for the task to go; every other
   * case passes one hour. Map it onto your store's own setting (core's `terminalTtlMs`, `@a2a/postgres`'s
   * `retention.finishedTaskTtlMs` with a sweep interval no longer than the TTL).
   */
  finishedTaskTtlMs: number;
}

export interface TaskStoreSuiteOptions<S extends TaskStore = TaskStore> {
  /**
   * A store, called at least once per test. It need not be empty: every test uses its own task ids, context ids and
   * owners, so all the stores of a run may share one database.
   */
  create(options: StoreFactoryOptions): S | Promise<S>;
  /**
   * A second instance on the same backend as `store` (another process would open the same one: its own connections,
   * caches and subscriptions), for the cross-instance cases: a write on one is read, listed and streamed on the other.
   * Default: `store` itself, which is the honest equivalent for a store whose state lives in one process (core's
   * in-memory store): a second process cannot reach it, so the same object is the only "second instance" there is.
   */
  createPeer?(store: S, options: StoreFactoryOptions): S | Promise<S>;
  /** Releases a store `create` or `createPeer` returned (connections, timers), after its test. */
  close?(store: S): void | Promise<void>;
  /**
   * The bound of every wait (a subscription's next record, a write becoming visible elsewhere, an expiry), in ms.
   * Never a timing assertion: a correct store passes on a slow machine, it only takes longer. Default 10 000.
   */
  timeoutMs?: number;
  /** The short `finishedTaskTtlMs` of the expiry case. Default 200. */
  expiryTtlMs?: number;
}

export interface PushConfigStoreSuiteOptions<S extends PushConfigStore = PushConfigStore> {
  /** A store, called at least once per test (need not be empty: every test uses its own task ids). */
  create(): S | Promise<S>;
  /** A second instance on the same backend (see {@link TaskStoreSuiteOptions.createPeer}). Default: `store` itself. */
  createPeer?(store: S): S | Promise<S>;
  /**
   * Makes a task exist before configs are saved for it (a store may refuse configs of unknown tasks). Default: when
   * the store is also a `TaskStore`, a new task created in it; otherwise nothing.
   */
  createTask?(store: S, taskId: string): void | Promise<void>;
  /** Releases a store after its test. */
  close?(store: S): void | Promise<void>;
  /** The bound of every wait, in ms. Default 10 000. */
  timeoutMs?: number;
}
