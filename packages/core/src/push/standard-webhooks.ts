/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `${webhook-id}.${webhook-timestamp}.${body}` with a `whsec_`-prefixed base64 secret. WebCrypto only.
 */
export async function standardWebhooksSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: Uint8Array,
): Promise<string> {
  const key = await hmacKey(secret);
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  return `v1,${toBase64(mac)}`;
}

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
    key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (keys.size > 1000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
