import type { PushNotificationHook } from '../push/push-hook.js';
import type { InMemoryTaskStore } from '../store/in-memory-task-store.js';
import type { PushConfigStore, TaskStore } from '../store/task-store.js';
import type { A2ALogger } from '../telemetry/logger.js';
import type { AgentCardInput } from './agent-card-input.js';
import type { A2AUser, AgentExecutor } from './agent-executor.js';
import type { ExecutionCoordinator } from './execution-coordinator.js';

export interface RequestHandlerOptions {
  agentCard: AgentCardInput;
  executor: AgentExecutor;
  /** Defaults to a bounded {@link InMemoryTaskStore}. */
  taskStore?: (TaskStore & Partial<PushConfigStore>) | undefined;
  /** Defaults to `taskStore` when it stores push configs too. */
  pushConfigStore?: PushConfigStore | undefined;
  /** Served by GetExtendedAgentCard to authenticated callers (requires `capabilities.extendedAgentCard`). */
  extendedAgentCard?: (AgentCardInput | ((user: A2AUser) => AgentCardInput | Promise<AgentCardInput>)) | undefined;
  /** Checks a webhook URL before a push config is stored (the push delivery module installs its SSRF guard here). */
  validatePushUrl?: ((url: string) => void | Promise<void>) | undefined;
  /** Push notification delivery, e.g. `createPushSender()`: notified of every saved config, follows its task. */
  pushNotifications?: PushNotificationHook | undefined;
  /**
   * Where errors and warnings go, with the task id and trace id on each line (pino's shape: `logger.error({ err,
   * taskId, traceId }, msg)`; pass a pino logger as is). Default: errors and warnings on the console, one line each.
   */
  logger?: A2ALogger | undefined;
  /** Errors of agents and internals that are not the client's fault (takes precedence over `logger.error`). */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * Accept message parts of any media type. Default false: a part whose `mediaType` (text parts without one are
   * `text/plain`) is not among the card's `defaultInputModes` or a skill's `inputModes` is refused with
   * ContentTypeNotSupportedError (-32005 / HTTP 400) before anything is stored (spec §3.1.1).
   */
  acceptAnyInputMode?: boolean | undefined;
  /**
   * Setup warnings (settings that would silently do nothing, e.g. a v0.3 `url` in the card, or push advertised
   * without a sender), each reported once when the handler is made (takes precedence over `logger.warn`).
   */
  onWarning?: ((message: string) => void) | undefined;
  /** Clock (tests). */
  now?: (() => string) | undefined;
  /** Leases and cross-instance cancel for several instances on one durable store. Default: none needed. */
  coordinator?: ExecutionCoordinator | undefined;
  /**
   * How long a running execution retries a write the task store refuses as unavailable (a database outage) before
   * it gives up: its executor is aborted and its lease released, so the task ends FAILED rather than staying WORKING.
   * The executor's call waits meanwhile. Default 5 minutes.
   */
  storeRetryMs?: number | undefined;
}

export interface CloseOptions {
  /** How long running executions may take to finish before they are aborted and their tasks failed. Default 25 s. */
  timeoutMs?: number;
}
