import { toV03StreamResult } from '../compat/v03-translate.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import { toStreamResponse } from '../store/stream-response.js';
import type { PushConfigStore, TaskEventRecord, TaskStore } from '../store/task-store.js';
import { isTerminal } from '../task-state.js';
import { A2ALog, type A2ALogger } from '../telemetry/logger.js';
import { loadOpenTelemetry } from '../telemetry/otel-api.js';
import { countPushDelivery, startPushAttempt } from '../telemetry/push-span.js';
import {
  InMemoryPushDeliveryStateStore,
  type PushConfigHealth,
  type PushDeliveryState,
  type PushDeliveryStateStore,
} from './delivery-state.js';
import { attemptPush, type PushAttemptContext } from './push-attempt.js';
import type { OutgoingNotification } from './push-headers.js';
import type { PushNotificationHook } from './push-hook.js';
import { type ConfigQueue, PushQueues, TaskWatcher } from './push-queue.js';
import type { PushSigner } from './push-signer.js';
import {
  type AttemptOutcome,
  attemptBudget,
  healthAfterFailure,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelay,
  sleep,
} from './retry-policy.js';
import { createPushUrlValidator, type HostResolver, PushUrlGuard, type PushUrlPolicy } from './ssrf-guard.js';

/** One serialised notification. */
export interface PushPayload {
  body: string;
  contentType: string;
}

/** Turns a log entry into the body for one config; `undefined` skips the entry (e.g. the client's own messages). */
export type PushSerializer = (record: TaskEventRecord, config: TaskPushNotificationConfig) => PushPayload | undefined;

export interface DeliveryFailure {
  taskId: string;
  configId: string;
  url: string;
  seq: number;
  notificationId: string;
  attempts: number;
  /** What happened to the config: still tried for later events ('failing') or no longer ('disabled'). */
  health: PushConfigHealth;
  reason: string;
  status?: number;
}

export interface DeliverySuccess {
  taskId: string;
  configId: string;
  seq: number;
  notificationId: string;
  attempts: number;
  status: number;
}

export interface PushSenderOptions {
  /**
   * The HTTP client. Default: the global `fetch`, which checks only IP-literal hosts before sending. On Node use
   * `createNodePushSender` from `@a2a/core/node`: its fetch resolves the host and dials only addresses it checked.
   */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** DNS for the create-time check of host names (`@a2a/core/node` passes node:dns). */
  resolve?: HostResolver;
  /** SSRF policy (allow-list etc.); on by default. `false` turns every address check off (not recommended). */
  ssrf?: PushUrlPolicy | false;
  /** Signs every notification with the agent's key (JWT over the body hash); its JWKS is served by the handler. */
  signer?: PushSigner;
  /** Standard Webhooks HMAC secret (`whsec_…`), for all configs or per config. */
  standardWebhooksSecret?: string | ((config: TaskPushNotificationConfig) => string | undefined);
  retry?: RetryPolicy;
  /** Per-attempt timeout. Default 15 s. */
  timeoutMs?: number;
  /** Body per config; default the v1.0 StreamResponse as `application/a2a+json` (the v0.3 compat layer hooks here). */
  serialize?: PushSerializer;
  /** Called when an event could not be delivered within its budget, or the config was disabled. Never throws back. */
  onDeliveryFailure?: (failure: DeliveryFailure) => void;
  onDelivered?: (success: DeliverySuccess) => void;
  /** Cursor and health per config. Default in memory. */
  stateStore?: PushDeliveryStateStore;
  /**
   * Where errors and warnings go (pino's shape, see the handler's `logger`). Default: the handler's logger, which
   * defaults to one console line each.
   */
  logger?: A2ALogger;
  /** Internal errors (store failures); takes precedence over `logger.error`. */
  onError?: (error: unknown) => void;
  /** Jitter source (tests). */
  random?: () => number;
}

/**
 * The v1.0 StreamResponse (`application/a2a+json`), or for a config registered through the v0.3 wire the v0.3 body
 * (bare kind-tagged Task or event, `application/json`) its receiver expects.
 */
export const defaultPushSerializer: PushSerializer = (record, config) => {
  const response = toStreamResponse(record);
  if (!response) return undefined;
  return config.protocolVersion === '0.3'
    ? { body: JSON.stringify(toV03StreamResult(response)), contentType: 'application/json' }
    : { body: JSON.stringify(response), contentType: 'application/a2a+json' };
};

const encoder = new TextEncoder();

/**
 * At-least-once webhook delivery. Each task with push configs is followed through `store.subscribe`; each config has
 * its own queue, delivered strictly in `seq` order with retries (exponential backoff, full jitter, `Retry-After`,
 * per-attempt timeout, no redirects). A slow or dead webhook only holds up its own queue. When an event exhausts its
 * attempt budget it is reported through `onDeliveryFailure` and skipped, and the config is marked failing; nothing
 * ever fails the task or the request that caused the event.
 */
export class PushSender implements PushNotificationHook {
  readonly guard: PushUrlGuard | undefined;
  readonly validatePushUrl?: (url: string) => Promise<void>;
  private readonly attempts: PushAttemptContext;
  private readonly serialize: PushSerializer;
  private readonly states: PushDeliveryStateStore;
  private readonly random: () => number;
  private readonly onError: (error: unknown) => void;
  private log: A2ALog;
  private readonly closed = new AbortController();
  private readonly watchers = new Map<string, TaskWatcher>();
  private readonly queues: PushQueues;
  private env: { store: TaskStore; pushStore: PushConfigStore } | undefined;

  constructor(private readonly options: PushSenderOptions = {}) {
    this.guard = options.ssrf === false ? undefined : new PushUrlGuard(options.ssrf);
    if (this.guard) this.validatePushUrl = createPushUrlValidator(this.guard, options.resolve);
    this.attempts = {
      fetch: options.fetch ?? ((url, init) => fetch(url, init)),
      guard: this.guard,
      signing: options,
      retry: resolveRetryPolicy(options.retry),
      timeoutMs: options.timeoutMs ?? 15_000,
      closed: this.closed.signal,
    };
    this.serialize = options.serialize ?? defaultPushSerializer;
    this.states = options.stateStore ?? new InMemoryPushDeliveryStateStore();
    this.random = options.random ?? Math.random;
    this.log = new A2ALog(options.logger, options.onError);
    this.onError = (error) => this.log.error(error);
    this.queues = new PushQueues((queue) => this.drain(queue), this.onError);
    void loadOpenTelemetry(); // optional: client spans and metrics once an OpenTelemetry SDK is registered
  }

  /** Called by the engine: returns its push config store, wrapped so every saved config starts delivery. */
  attach(env: { store: TaskStore; pushStore: PushConfigStore; log?: A2ALog | undefined }): PushConfigStore {
    if (this.env && this.env.store !== env.store) throw new Error('A PushSender serves one task store');
    this.env = env;
    // Without a logger or hook of its own, the sender logs where the handler does.
    if (env.log && !this.options.logger && !this.options.onError) this.log = env.log;
    const { store, pushStore } = env;
    return {
      savePushConfig: async (config) => {
        // The cursor is the version before saving: events appended from now on are delivered.
        const version = (await store.get(config.taskId))?.version ?? 0;
        await pushStore.savePushConfig(config);
        const existing = await this.states.get(config.taskId, config.id);
        if (!existing || existing.health === 'disabled') {
          await this.states.set(config.taskId, config.id, {
            lastDeliveredSeq: version,
            health: 'active',
            consecutiveFailures: 0,
          });
        }
        this.watch(config.taskId, version);
      },
      getPushConfig: (taskId, id) => pushStore.getPushConfig(taskId, id),
      listPushConfigs: (taskId) => pushStore.listPushConfigs(taskId),
      deletePushConfig: (taskId, id) => pushStore.deletePushConfig(taskId, id),
    };
  }

  /**
   * Follows a task's events from `afterSeq` (default: the lowest cursor of its configs) and delivers them. Idempotent
   * while the task is followed; a durable deployment calls it at startup for tasks with undelivered events.
   */
  watch(taskId: string, afterSeq?: number): void {
    const env = this.requireEnv();
    const running = this.watchers.get(taskId);
    if (running && (afterSeq === undefined || afterSeq >= running.from)) return;
    running?.stop();
    const watcher = new TaskWatcher(taskId, this.closed.signal);
    this.watchers.set(taskId, watcher);
    void (async () => {
      const from = afterSeq ?? (await this.lowestCursor(taskId));
      watcher.from = from;
      for await (const record of env.store.subscribe(taskId, from, watcher.signal)) {
        await this.dispatch(record);
        if (isTerminal(record.state)) break;
      }
    })()
      .catch(this.onError)
      .finally(() => {
        watcher.stop();
        if (this.watchers.get(taskId) === watcher) this.watchers.delete(taskId);
      });
  }

  /** Cursor and health of one config (for dashboards and tests). */
  deliveryState(taskId: string, configId: string): Promise<PushDeliveryState | undefined> {
    return this.states.get(taskId, configId);
  }

  /** Resolves once no notification is queued or in flight. */
  idle(): Promise<void> {
    return this.queues.idle();
  }

  /** The JWKS route (served by `createA2AHandler` at `/.well-known/jwks.json`) when notifications are signed. */
  jwksResponse(): Promise<Response> | undefined {
    return this.options.signer?.jwksResponse();
  }

  /** Stops following tasks and abandons queued deliveries (shutdown). */
  close(): void {
    this.closed.abort();
    for (const watcher of this.watchers.values()) watcher.stop();
  }

  private requireEnv() {
    if (!this.env) throw new Error('PushSender is not attached: pass it as `pushNotifications` to createA2AHandler');
    return this.env;
  }

  private async lowestCursor(taskId: string): Promise<number> {
    const env = this.requireEnv();
    let lowest = (await env.store.get(taskId))?.version ?? 0;
    for (const config of await env.pushStore.listPushConfigs(taskId)) {
      const state = await this.states.get(taskId, config.id);
      if (state && state.health !== 'disabled') lowest = Math.min(lowest, state.lastDeliveredSeq);
    }
    return lowest;
  }

  /** Hands a log entry to the queue of every config that has not seen it yet. */
  private async dispatch(record: TaskEventRecord): Promise<void> {
    const env = this.requireEnv();
    for (const config of await env.pushStore.listPushConfigs(record.taskId)) this.queues.push(config.id, record);
  }

  /** Sends a queue's events in order, skipping those behind the config's cursor; stops for a gone config. */
  private async drain(queue: ConfigQueue): Promise<void> {
    for (let record = queue.shift(); record; record = queue.shift()) {
      if (this.closed.signal.aborted) return queue.clear();
      const config = await this.requireEnv().pushStore.getPushConfig(queue.taskId, queue.configId);
      if (!config) return queue.clear(); // deleted
      const state = (await this.states.get(queue.taskId, queue.configId)) ?? {
        lastDeliveredSeq: record.seq - 1,
        health: 'active' as const,
        consecutiveFailures: 0,
      };
      if (state.health === 'disabled') return queue.clear();
      if (record.seq <= state.lastDeliveredSeq) continue;
      await this.deliver(config, record, state);
    }
  }

  /** One event to one config, retried within the budget; updates the cursor and health. */
  private async deliver(
    config: TaskPushNotificationConfig,
    record: TaskEventRecord,
    state: PushDeliveryState,
  ): Promise<void> {
    const payload = this.serialize(record, config);
    const save = (next: PushDeliveryState) => this.states.set(config.taskId, config.id, next);
    if (!payload) return save({ ...state, lastDeliveredSeq: record.seq });
    const notificationId = `${config.taskId}:${config.id}:${record.seq}`;
    const notification: OutgoingNotification = {
      id: notificationId,
      seq: record.seq,
      contentType: payload.contentType,
      body: encoder.encode(payload.body),
    };
    const retry = this.attempts.retry;
    const budget = attemptBudget(retry, state.health);
    let outcome: AttemptOutcome = { kind: 'retry', reason: 'not attempted' };
    let attempts = 0;
    while (attempts < budget && !this.closed.signal.aborted) {
      attempts++;
      const trace = startPushAttempt({
        url: config.url,
        taskId: config.taskId,
        configId: config.id,
        seq: record.seq,
        attempt: attempts,
      });
      outcome = await attemptPush(this.attempts, config, notification, trace);
      trace?.end(outcome);
      if (outcome.kind === 'ok') {
        countPushDelivery(true);
        await save({ lastDeliveredSeq: record.seq, health: 'active', consecutiveFailures: 0 });
        this.options.onDelivered?.({
          taskId: config.taskId,
          configId: config.id,
          seq: record.seq,
          notificationId,
          attempts,
          status: outcome.status,
        });
        return;
      }
      if (outcome.kind !== 'retry' || attempts >= budget) break;
      await sleep(retryDelay(retry, outcome, attempts, this.random), this.closed.signal);
    }
    if (this.closed.signal.aborted) return; // shutdown: the cursor stays, a durable deployment resumes here
    const health: PushConfigHealth = healthAfterFailure(outcome);
    await save({
      lastDeliveredSeq: record.seq,
      health,
      consecutiveFailures: state.consecutiveFailures + 1,
      lastError: outcome.reason,
    });
    const failure: DeliveryFailure = {
      taskId: config.taskId,
      configId: config.id,
      url: config.url,
      seq: record.seq,
      notificationId,
      attempts,
      health,
      reason: outcome.reason,
      ...(outcome.status !== undefined && { status: outcome.status }),
    };
    countPushDelivery(false, { 'a2a.push.health': health });
    try {
      this.options.onDeliveryFailure?.(failure);
    } catch (error) {
      this.onError(error);
    }
    if (!this.options.onDeliveryFailure) {
      this.log.warn(
        `push notification ${failure.notificationId} to ${redact(config.url)} given up after ${attempts} attempts: ${failure.reason}`,
        { taskId: config.taskId },
      );
    }
  }
}

/** URLs may carry secrets in the query: log origin and path only. */
const redact = (url: string): string => {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
};

/** A {@link PushSender} for `createA2AHandler({ pushNotifications })`. */
export function createPushSender(options: PushSenderOptions = {}): PushSender {
  return new PushSender(options);
}
