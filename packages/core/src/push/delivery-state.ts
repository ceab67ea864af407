import { BoundedCache } from '../store/bounded-cache.js';

export type PushConfigHealth = 'active' | 'failing' | 'disabled';

/** Delivery progress of one push config: the cursor into its task's event log, and its health. */
export interface PushDeliveryState {
  /** Events with `seq <= lastDeliveredSeq` are acknowledged (or dead-lettered); delivery resumes after it. */
  lastDeliveredSeq: number;
  health: PushConfigHealth;
  consecutiveFailures: number;
  lastError?: string;
}

/**
 * Where cursors live. The default keeps them in memory (lost on restart, like the in-memory task store); a durable
 * backend stores them next to the config row so another instance, or this one after a restart, resumes from
 * `lastDeliveredSeq` by calling `PushSender.watch(taskId)`.
 */
export interface PushDeliveryStateStore {
  get(taskId: string, configId: string): Promise<PushDeliveryState | undefined>;
  set(taskId: string, configId: string, state: PushDeliveryState): Promise<void>;
}

export class InMemoryPushDeliveryStateStore implements PushDeliveryStateStore {
  private readonly states: BoundedCache<string, PushDeliveryState>;

  constructor(max = 100_000) {
    this.states = new BoundedCache({ max });
  }

  async get(taskId: string, configId: string): Promise<PushDeliveryState | undefined> {
    const state = this.states.get(key(taskId, configId));
    return state && { ...state };
  }

  async set(taskId: string, configId: string, state: PushDeliveryState): Promise<void> {
    this.states.set(key(taskId, configId), { ...state });
  }
}

const key = (taskId: string, configId: string) => `${taskId}\u0000${configId}`;
