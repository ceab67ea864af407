export { createWebhookReceiver, WebhookReceiver, type NotificationHandler, type ReceiveResult, type WebhookReceiverOptions } from './receiver.js';
export type { AnyNotification, Notification, NotificationKind, NotificationPayloads } from './notification.js';
export { WebhookError } from './errors.js';
export { safeEqual, type JwtVerification, type StandardWebhooksVerification } from './verifiers.js';
export { fromV03 } from './v03.js';
