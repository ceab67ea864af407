import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import { type PushSigner, SIGNATURE_HEADER } from './push-signer.js';
import { standardWebhooksSignature } from './standard-webhooks.js';

/** One event, serialised for one config: what every attempt of it sends. */
export interface OutgoingNotification {
  /** `<taskId>:<configId>:<seq>`, the same on every retry so receivers can drop duplicates. */
  id: string;
  seq: number;
  contentType: string;
  body: Uint8Array;
}

/** How notifications are signed (the sender's options of the same names). */
export interface NotificationSigning {
  signer?: PushSigner | undefined;
  standardWebhooksSecret?: string | ((config: TaskPushNotificationConfig) => string | undefined) | undefined;
}

/**
 * The headers of one attempt: identity, the config's credentials and the signatures. Built per attempt because the
 * timestamp and the JWT's `iat` must be fresh when a retry goes out.
 */
export async function notificationHeaders(
  config: TaskPushNotificationConfig,
  notification: OutgoingNotification,
  signing: NotificationSigning,
): Promise<Headers> {
  const { id, seq, contentType, body } = notification;
  const timestamp = Math.floor(Date.now() / 1000);
  // Headers rejects CR/LF in values, so a config cannot inject headers.
  const headers = new Headers({
    'content-type': contentType,
    'a2a-notification-id': id,
    'a2a-notification-seq': String(seq),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
  });
  const auth = config.authentication;
  if (auth?.credentials) headers.set('authorization', `${auth.scheme} ${auth.credentials}`);
  if (config.token) headers.set('x-a2a-notification-token', config.token);
  const secret =
    typeof signing.standardWebhooksSecret === 'function'
      ? signing.standardWebhooksSecret(config)
      : signing.standardWebhooksSecret;
  if (secret) headers.set('webhook-signature', await standardWebhooksSignature(secret, id, timestamp, body));
  if (signing.signer) {
    const jwt = await signing.signer.sign({ body, audience: config.url, jti: id, taskId: config.taskId });
    headers.set(SIGNATURE_HEADER, jwt);
  }
  return headers;
}
