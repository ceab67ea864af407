import type { JWK } from 'jose';
import { loadJose } from '../load-jose.js';

/** The header carrying the agent's JWT over a notification. */
export const SIGNATURE_HEADER = 'a2a-notification-signature';
/** The JWT claim holding base64url(SHA-256(exact body bytes)). */
export const BODY_HASH_CLAIM = 'request_body_sha256';

export interface PushSigningKey {
  /** Key id, written into the JWT header; receivers pick the JWKS key by it. */
  kid: string;
  /** JWS algorithm, e.g. ES256 (default) or EdDSA. */
  alg?: string;
  privateKey: CryptoKey | JWK;
  /** The public half for the JWKS; derived from a JWK `privateKey` when omitted. */
  publicJwk?: JWK;
}

export interface PushSignerOptions {
  /** `iss` of every token: the agent's public base URL (receivers pin it). */
  issuer: string;
  /**
   * Signing keys. The first (or `activeKid`) signs; the others stay published in the JWKS so tokens signed before a
   * rotation still verify. Rotate by adding the new key first and dropping the old one after the token lifetime.
   */
  keys: PushSigningKey[];
  activeKid?: string;
  /** Token lifetime (`exp - iat`). Default 300 s. */
  ttlSeconds?: number;
}

export interface JsonWebKeySet {
  keys: JWK[];
}

interface PreparedKey {
  kid: string;
  alg: string;
  key: CryptoKey | Uint8Array;
  publicJwk: JWK;
}

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** Signs notifications with the agent's keys (JWT, jose) and publishes the public keys as a JWKS. */
export class PushSigner {
  private readonly prepared: Promise<PreparedKey[]>;
  private readonly activeKid: string;
  private readonly ttlSeconds: number;

  constructor(private readonly options: PushSignerOptions) {
    const first = options.keys[0];
    if (!first) throw new Error('PushSigner needs at least one key');
    this.activeKid = options.activeKid ?? first.kid;
    if (!options.keys.some((k) => k.kid === this.activeKid))
      throw new Error(`No signing key with kid ${this.activeKid}`);
    this.ttlSeconds = options.ttlSeconds ?? 300;
    this.prepared = Promise.all(options.keys.map(prepare));
    this.prepared.catch(() => {}); // surfaced by sign()/jwks()
  }

  /** A compact JWT binding the body bytes, the webhook URL (`aud`), the notification id (`jti`) and the task. */
  async sign(input: {
    body: Uint8Array;
    audience: string;
    jti: string;
    taskId: string;
    now?: number;
  }): Promise<string> {
    const keys = await this.prepared;
    const key = keys.find((k) => k.kid === this.activeKid) as PreparedKey;
    const { SignJWT } = await loadJose();
    const iat = Math.floor((input.now ?? Date.now()) / 1000);
    return new SignJWT({ taskId: input.taskId, [BODY_HASH_CLAIM]: await sha256Base64Url(input.body) })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.options.issuer)
      .setAudience(input.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .setJti(input.jti)
      .sign(key.key);
  }

  /** The public keys, for `/.well-known/jwks.json`. */
  async jwks(): Promise<JsonWebKeySet> {
    return { keys: (await this.prepared).map((k) => ({ ...k.publicJwk })) };
  }

  /** The JWKS as a Fetch response (cacheable for 5 minutes). */
  async jwksResponse(): Promise<Response> {
    return new Response(JSON.stringify(await this.jwks()), {
      headers: { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' },
    });
  }
}

/** A fresh extractable key pair for {@link PushSignerOptions.keys}. */
export async function generatePushSigningKey(kid: string, alg = 'ES256'): Promise<PushSigningKey> {
  const { exportJWK, generateKeyPair } = await loadJose();
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export async function sha256Base64Url(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function prepare(input: PushSigningKey): Promise<PreparedKey> {
  const alg = input.alg ?? (isJwk(input.privateKey) ? input.privateKey.alg : undefined) ?? 'ES256';
  const { exportJWK, importJWK } = await loadJose();
  const key = isJwk(input.privateKey) ? await importJWK(input.privateKey, alg) : input.privateKey;
  let publicJwk = input.publicJwk;
  if (!publicJwk) {
    const source = isJwk(input.privateKey) ? input.privateKey : await exportJWK(input.privateKey);
    publicJwk = { ...source };
    for (const member of PRIVATE_JWK_MEMBERS) delete publicJwk[member];
  }
  return { kid: input.kid, alg, key, publicJwk: { ...publicJwk, kid: input.kid, alg, use: 'sig' } };
}

const isJwk = (key: CryptoKey | JWK): key is JWK => typeof (key as JWK).kty === 'string';
