export {
  InMemoryPushDeliveryStateStore,
  type PushConfigHealth,
  type PushDeliveryState,
  type PushDeliveryStateStore,
} from './delivery-state.js';
export type { PushNotificationHook } from './push-hook.js';
export {
  createPushSender,
  type DeliveryFailure,
  type DeliverySuccess,
  defaultPushSerializer,
  type PushPayload,
  PushSender,
  type PushSenderOptions,
  type PushSerializer,
} from './push-sender.js';
export {
  BODY_HASH_CLAIM,
  generatePushSigningKey,
  type JsonWebKeySet,
  PushSigner,
  type PushSignerOptions,
  type PushSigningKey,
  SIGNATURE_HEADER,
  sha256Base64Url,
} from './push-signer.js';
export type { RetryPolicy } from './retry-policy.js';
export {
  BlockedAddressError,
  createPushUrlValidator,
  type HostResolver,
  PushUrlGuard,
  type PushUrlPolicy,
} from './ssrf-guard.js';
export { standardWebhooksSignature } from './standard-webhooks.js';
