export { WebhookError } from './errors.js';
export type { AnyNotification, Notification, NotificationKind, NotificationPayloads } from './notification.js';
export {
  createWebhookReceiver,
  type NotificationHandler,
  type ReceiveResult,
  WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver.js';
export { fromV03 } from './v03.js';
export { type JwtVerification, type StandardWebhooksVerification, safeEqual } from './verifiers.js';
