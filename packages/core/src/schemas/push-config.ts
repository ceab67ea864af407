import { z } from 'zod';
import { httpUrl, protoMessage } from './proto-json.js';

export const AuthenticationInfoSchema = protoMessage({
  /** IANA HTTP auth scheme, e.g. Bearer or Basic (case-insensitive). */
  scheme: z.string().min(1),
  credentials: z.string().optional(),
});
export type AuthenticationInfo = z.output<typeof AuthenticationInfoSchema>;

/** v1.0 flat push notification config. `taskId` is empty when sent inside SendMessageConfiguration. */
export const TaskPushNotificationConfigSchema = protoMessage({
  tenant: z.string().optional(),
  id: z.string().optional(),
  taskId: z.string().optional(),
  url: httpUrl,
  token: z.string().optional(),
  authentication: AuthenticationInfoSchema.optional(),
});
export type TaskPushNotificationConfigInput = z.output<typeof TaskPushNotificationConfigSchema>;

/** A stored config always has its task and its id. */
export type TaskPushNotificationConfig = TaskPushNotificationConfigInput & { id: string; taskId: string };
