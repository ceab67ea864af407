import { z } from 'zod';
import { boundedId } from './id.js';
import { httpUrl, protoMessage } from './proto-json.js';
import type { AuthenticationInfo, TaskPushNotificationConfigInput } from './types.generated.js';

// The protocol types, plain (generated from these schemas: scripts/generate-types.mjs).
export type { AuthenticationInfo, TaskPushNotificationConfigInput };

export const AuthenticationInfoSchema = protoMessage({
  /** IANA HTTP auth scheme, e.g. Bearer or Basic (case-insensitive). */
  scheme: z.string().min(1),
  credentials: z.string().optional(),
});

/** v1.0 flat push notification config. `taskId` is empty when sent inside SendMessageConfiguration. */
export const TaskPushNotificationConfigSchema = protoMessage({
  tenant: boundedId.optional(),
  id: boundedId.optional(),
  taskId: boundedId.optional(),
  url: httpUrl,
  token: z.string().optional(),
  authentication: AuthenticationInfoSchema.optional(),
});

/**
 * A stored config always has its task and its id. `protocolVersion` (internal, never on the v1.0 wire) records a legacy
 * wire the config was registered through, so its notifications are sent in that version's body shape.
 */
export type TaskPushNotificationConfig = TaskPushNotificationConfigInput & {
  id: string;
  taskId: string;
  protocolVersion?: string | undefined;
};

export { publicPushConfig } from './plain.js';
