export {
  createPushSender,
  defaultPushSerializer,
  PushSender,
  type DeliveryFailure,
  type DeliverySuccess,
  type PushPayload,
  type PushSenderOptions,
  type PushSerializer,
} from './push-sender.js';
export {
  BODY_HASH_CLAIM,
  generatePushSigningKey,
  PushSigner,
  SIGNATURE_HEADER,
  sha256Base64Url,
  type JsonWebKeySet,
  type PushSignerOptions,
  type PushSigningKey,
} from './push-signer.js';
export { BlockedAddressError, createPushUrlValidator, PushUrlGuard, type HostResolver, type PushUrlPolicy } from './ssrf-guard.js';
export type { PushNotificationHook } from './push-hook.js';
export type { RetryPolicy } from './retry-policy.js';
export {
  InMemoryPushDeliveryStateStore,
  type PushConfigHealth,
  type PushDeliveryState,
  type PushDeliveryStateStore,
} from './delivery-state.js';
export { standardWebhooksSignature } from './standard-webhooks.js';
