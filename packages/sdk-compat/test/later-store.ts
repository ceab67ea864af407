import { InMemoryTaskStore, type TaskStore } from '@a2a/core';

/**
 * The in-memory store with its writes landing a turn later, as a remote store's do: the engine's writes then never
 * land at once, so every helper call of an SDK executor goes through its promise (and waits for the one before).
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
