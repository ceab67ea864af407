import { InMemoryTaskStore, type TaskStore } from '@a2a/core';

/**
 * The in-memory store with its writes landing a turn later, as a remote store's do: the engine's writes then never
 * land at once, so a test sees every path that waits for a write's promise.
 */
export class LaterStore extends InMemoryTaskStore {
  override async create(...args: Parameters<TaskStore['create']>) {
    await null;
    return super.create(...args);
  }
  override async append(...args: Parameters<TaskStore['append']>) {
    await null;
    return super.append(...args);
  }
}
