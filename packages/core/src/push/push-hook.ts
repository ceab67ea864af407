import type { PushConfigStore, TaskStore } from '../store/task-store.js';
import type { A2ALog } from '../telemetry/logger.js';

/**
 * What the engine needs from a push notification deliverer (see `PushSender`). The engine calls `attach` once and
 * uses the push config store it returns, so the deliverer notices every config saved (through
 * CreateTaskPushNotificationConfig or SendMessage's configuration) and starts following that task's events.
 */
export interface PushNotificationHook {
  attach(env: { store: TaskStore; pushStore: PushConfigStore; log?: A2ALog | undefined }): PushConfigStore;
  /** Create-time webhook URL check (SSRF policy); used when the engine has no `validatePushUrl` of its own. */
  validatePushUrl?(url: string): void | Promise<void>;
  /** The agent's public signing keys as a JWKS response, or `undefined` when notifications are not signed. */
  jwksResponse?(): Promise<Response> | undefined;
}
