import { toV03StreamResult } from '../compat/v03-translate.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import { toStreamResponse } from '../server/stream-response.js';
import type { PushConfigStore, TaskEventRecord, TaskStore } from '../store/task-store.js';
import { isTerminal } from '../task-state.js';
import { A2ALog, type A2ALogger } from '../telemetry/logger.js';
import { loadOpenTelemetry } from '../telemetry/otel-api.js';
import { countPushDelivery, type PushAttemptTelemetry, startPushAttempt } from '../telemetry/push-span.js';
import { deadlineSignal } from './deadline-signal.js';
import {
  InMemoryPushDeliveryStateStore,
  type PushConfigHealth,
  type PushDeliveryState,
  type PushDeliveryStateStore,
} from './delivery-state.js';
import type { PushNotificationHook } from './push-hook.js';
import { type PushSigner, SIGNATURE_HEADER } from './push-signer.js';
import {
  backoffDelay,
  type ResolvedRetryPolicy,
  type RetryPolicy,
  resolveRetryPolicy,
  retryAfterMs,
  sleep,
} from './retry-policy.js';
import { createPushUrlValidator, type HostResolver, PushUrlGuard, type PushUrlPolicy } from './ssrf-guard.js';
import { standardWebhooksSignature } from './standard-webhooks.js';

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
  private readonly fetchFn: (url: string, init: RequestInit) => Promise<Response>;
  private readonly retry: ResolvedRetryPolicy;
  private readonly timeoutMs: number;
  private readonly serialize: PushSerializer;
  private readonly states: PushDeliveryStateStore;
  private readonly random: () => number;
  private readonly onError: (error: unknown) => void;
  private log: A2ALog;
  private readonly closed = new AbortController();
  private readonly watchers = new Map<string, TaskWatcher>();
  private readonly queues = new Map<string, ConfigQueue>();
  private idleWaiters: (() => void)[] = [];
  private env: { store: TaskStore; pushStore: PushConfigStore } | undefined;

  constructor(private readonly options: PushSenderOptions = {}) {
    this.guard = options.ssrf === false ? undefined : new PushUrlGuard(options.ssrf);
    if (this.guard) this.validatePushUrl = createPushUrlValidator(this.guard, options.resolve);
    this.fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
    this.retry = resolveRetryPolicy(options.retry);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.serialize = options.serialize ?? defaultPushSerializer;
    this.states = options.stateStore ?? new InMemoryPushDeliveryStateStore();
    this.random = options.random ?? Math.random;
    this.log = new A2ALog(options.logger, options.onError);
    this.onError = (error) => this.log.error(error);
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
    if (this.queues.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
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
    for (const config of await env.pushStore.listPushConfigs(record.taskId)) {
      const key = `${record.taskId}\u0000${config.id}`;
      let queue = this.queues.get(key);
      if (!queue) {
        queue = new ConfigQueue(
          record.taskId,
          config.id,
          (q) => this.drain(q),
          (q) => this.queueDone(q),
          this.onError,
        );
        this.queues.set(key, queue);
      }
      queue.push(record);
    }
  }

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

  private queueDone(queue: ConfigQueue): void {
    const key = `${queue.taskId}\u0000${queue.configId}`;
    if (this.queues.get(key) === queue) this.queues.delete(key);
    if (this.queues.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
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
    const budget = state.health === 'failing' ? this.retry.failingAttempts : this.retry.maxAttempts;
    const body = encoder.encode(payload.body);
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
      outcome = await this.attempt(config, record, notificationId, payload.contentType, body, trace);
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
      const delay = outcome.retryAfterMs ?? backoffDelay(this.retry, attempts, this.random);
      await sleep(delay, this.closed.signal);
    }
    if (this.closed.signal.aborted) return; // shutdown: the cursor stays, a durable deployment resumes here
    const health: PushConfigHealth = outcome.kind === 'disable' ? 'disabled' : 'failing';
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

  private async attempt(
    config: TaskPushNotificationConfig,
    record: TaskEventRecord,
    notificationId: string,
    contentType: string,
    body: Uint8Array,
    trace: PushAttemptTelemetry | undefined,
  ): Promise<AttemptOutcome> {
    let headers: Headers;
    try {
      // Checked again at send time: configs may come from a store another process wrote.
      this.guard?.checkUrl(config.url);
      headers = await this.headers(config, record, notificationId, contentType, body);
    } catch (error) {
      return { kind: 'disable', reason: errorMessage(error) };
    }
    trace?.inject(headers);
    const deadline = deadlineSignal(this.closed.signal, this.timeoutMs);
    let response: Response;
    try {
      const init: RequestInit = {
        method: 'POST',
        headers,
        body: body as Uint8Array<ArrayBuffer>,
        redirect: 'manual',
        signal: deadline.signal,
      };
      response = await (trace ? trace.run(() => this.fetchFn(config.url, init)) : this.fetchFn(config.url, init));
    } catch (error) {
      if (isBlockedAddress(error)) return { kind: 'disable', reason: errorMessage(error) };
      return {
        kind: 'retry',
        reason: deadline.timedOut ? `timed out after ${this.timeoutMs} ms` : errorMessage(error),
      };
    } finally {
      deadline.dispose();
    }
    // Only the status matters: never buffer what a receiver sends back.
    void response.body?.cancel().catch(() => {});
    const status = response.status;
    if (status >= 200 && status < 300) return { kind: 'ok', status };
    if (status === 410) return { kind: 'disable', status, reason: 'webhook answered 410 Gone' };
    if (status === 413) return { kind: 'drop', status, reason: 'webhook answered 413: notification too large' };
    if (status >= 300 && status < 400)
      return { kind: 'drop', status, reason: `webhook answered a redirect (${status}); redirects are not followed` };
    const retryAfter =
      status === 429 || status === 503
        ? retryAfterMs(response.headers.get('retry-after'), this.retry.maxDelayMs)
        : undefined;
    return {
      kind: 'retry',
      status,
      reason: `webhook answered ${status}`,
      ...(retryAfter !== undefined && { retryAfterMs: retryAfter }),
    };
  }

  private async headers(
    config: TaskPushNotificationConfig,
    record: TaskEventRecord,
    notificationId: string,
    contentType: string,
    body: Uint8Array,
  ): Promise<Headers> {
    const timestamp = Math.floor(Date.now() / 1000);
    // Headers rejects CR/LF in values, so a config cannot inject headers.
    const headers = new Headers({
      'content-type': contentType,
      'a2a-notification-id': notificationId,
      'a2a-notification-seq': String(record.seq),
      'webhook-id': notificationId,
      'webhook-timestamp': String(timestamp),
    });
    const auth = config.authentication;
    if (auth?.credentials) headers.set('authorization', `${auth.scheme} ${auth.credentials}`);
    if (config.token) headers.set('x-a2a-notification-token', config.token);
    const secret =
      typeof this.options.standardWebhooksSecret === 'function'
        ? this.options.standardWebhooksSecret(config)
        : this.options.standardWebhooksSecret;
    if (secret)
      headers.set('webhook-signature', await standardWebhooksSignature(secret, notificationId, timestamp, body));
    if (this.options.signer) {
      const jwt = await this.options.signer.sign({
        body,
        audience: config.url,
        jti: notificationId,
        taskId: config.taskId,
      });
      headers.set(SIGNATURE_HEADER, jwt);
    }
    return headers;
  }
}

type AttemptOutcome =
  | { kind: 'ok'; status: number }
  | { kind: 'retry'; reason: string; status?: number; retryAfterMs?: number }
  | { kind: 'drop' | 'disable'; reason: string; status?: number };

class TaskWatcher {
  from = Number.POSITIVE_INFINITY;
  private readonly controller = new AbortController();
  readonly signal: AbortSignal;

  constructor(
    readonly taskId: string,
    parent: AbortSignal,
  ) {
    this.signal = AbortSignal.any([parent, this.controller.signal]);
  }

  stop(): void {
    this.controller.abort();
  }
}

/** Pending events of one config, drained by one loop at a time. */
class ConfigQueue {
  private pending: TaskEventRecord[] = [];
  private running = false;

  constructor(
    readonly taskId: string,
    readonly configId: string,
    private readonly drain: (queue: ConfigQueue) => Promise<void>,
    private readonly done: (queue: ConfigQueue) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(record: TaskEventRecord): void {
    this.pending.push(record);
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  shift(): TaskEventRecord | undefined {
    return this.pending.shift();
  }

  clear(): void {
    this.pending = [];
  }

  private async loop(): Promise<void> {
    while (this.pending.length > 0) {
      try {
        await this.drain(this);
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = false;
    this.done(this);
  }
}

const errorMessage = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
};

const isBlockedAddress = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'BlockedAddressError' ||
    (error.cause instanceof Error && error.cause.name === 'BlockedAddressError'));

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
