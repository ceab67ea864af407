import { BODY_HASH_CLAIM, SIGNATURE_HEADER, standardWebhooksSignature } from '@a2a/core';
import { loadJose, sha256Base64Url } from '@a2a/core/internal';
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { WebhookError } from './errors.js';

export interface JwtVerification {
  /** The agent's JWKS: its URL (fetched and cached, re-fetched on an unknown `kid`), a key set, or a jose key getter. */
  jwks: string | URL | JSONWebKeySet | JWTVerifyGetKey;
  /** Expected `iss` (the agent). */
  issuer: string;
  /** Expected `aud`: the webhook URL you registered. */
  audience: string | string[];
  /** Accepted algorithms. Default asymmetric only: ES256, ES384, EdDSA, RS256, PS256. */
  algorithms?: string[];
  /** Oldest accepted `iat`. Default 300 s. */
  maxAgeSeconds?: number;
  /** Clock skew allowance. Default 60 s. */
  clockToleranceSeconds?: number;
}

export interface StandardWebhooksVerification {
  /** `whsec_…` secret(s); several during a rotation. */
  secret: string | string[];
  /** Accepted timestamp skew either way. Default 300 s. */
  toleranceSeconds?: number;
}

const encoder = new TextEncoder();

/** Constant-time equality: compares SHA-256 digests, so neither length nor the first mismatch leaks. */
export async function safeEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < da.length; i++) diff |= (da[i] as number) ^ (db[i] as number);
  return diff === 0;
}

const digest = async (s: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(s)));

/** The token a sender puts in `X-A2A-Notification-Token` (or the Go SDK's `A2A-Notification-Token`). */
export async function verifyToken(headers: Headers, expected: readonly string[]): Promise<void> {
  const token = headers.get('x-a2a-notification-token') ?? headers.get('a2a-notification-token');
  if (token === null) throw new WebhookError(401, 'missing notification token');
  let ok = false;
  for (const candidate of expected) ok = (await safeEqual(token, candidate)) || ok;
  if (!ok) throw new WebhookError(401, 'notification token does not match');
}

/** The `Authorization` header the config's `authentication` produces (`<scheme> <credentials>`). */
export async function verifyAuthorization(
  headers: Headers,
  expected: { scheme: string; credentials: string },
): Promise<void> {
  const header = headers.get('authorization');
  if (header === null) throw new WebhookError(401, 'missing Authorization header');
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  const credentials = space < 0 ? '' : header.slice(space + 1).trim();
  const ok =
    (await safeEqual(credentials, expected.credentials)) && scheme.toLowerCase() === expected.scheme.toLowerCase();
  if (!ok) throw new WebhookError(401, 'Authorization does not match');
}

export function jwtVerifier(options: JwtVerification) {
  const { jwks } = options;
  // jose is an ES module: imported at the first notification, so a CommonJS app loads the receiver without it.
  let keys: JWTVerifyGetKey | undefined;
  const keyGetter = (jose: typeof import('jose')): JWTVerifyGetKey =>
    (keys ??=
      typeof jwks === 'function'
        ? jwks
        : typeof jwks === 'string' || jwks instanceof URL
          ? jose.createRemoteJWKSet(new URL(jwks))
          : jose.createLocalJWKSet(jwks));
  const algorithms = options.algorithms ?? ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'];
  /** The verified claims; the body hash claim must equal SHA-256 of the exact bytes received. */
  return async (raw: Uint8Array, headers: Headers): Promise<JWTPayload> => {
    const token = headers.get(SIGNATURE_HEADER);
    if (!token) throw new WebhookError(401, `missing ${SIGNATURE_HEADER} header`);
    const jose = await loadJose();
    let payload: JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, keyGetter(jose), {
        issuer: options.issuer,
        audience: options.audience,
        algorithms,
        maxTokenAge: options.maxAgeSeconds ?? 300,
        clockTolerance: options.clockToleranceSeconds ?? 60,
        requiredClaims: ['iss', 'aud', 'iat', 'exp', 'jti'],
      }));
    } catch (error) {
      const why = error instanceof jose.errors.JOSEError ? `${error.code}: ${error.message}` : String(error);
      throw new WebhookError(401, `notification JWT rejected (${why})`);
    }
    if (payload[BODY_HASH_CLAIM] !== (await sha256Base64Url(raw))) {
      throw new WebhookError(
        401,
        'body hash does not match the JWT: the bytes were changed in transit, or a body parser re-serialised them before the receiver saw them',
      );
    }
    return payload;
  };
}

export function standardWebhooksVerifier(options: StandardWebhooksVerification) {
  const secrets = Array.isArray(options.secret) ? options.secret : [options.secret];
  const tolerance = options.toleranceSeconds ?? 300;
  /** The verified `webhook-id`. */
  return async (raw: Uint8Array, headers: Headers, nowMs = Date.now()): Promise<string> => {
    const id = headers.get('webhook-id');
    const timestamp = headers.get('webhook-timestamp');
    const signatures = headers.get('webhook-signature');
    if (!id || !timestamp || !signatures) throw new WebhookError(401, 'missing Standard Webhooks headers');
    const seconds = Number(timestamp);
    if (!Number.isInteger(seconds) || Math.abs(nowMs / 1000 - seconds) > tolerance) {
      throw new WebhookError(401, 'webhook-timestamp outside the tolerance');
    }
    const offered = signatures.split(' ').filter((s) => s.startsWith('v1,'));
    let ok = false;
    for (const secret of secrets) {
      const expected = await standardWebhooksSignature(secret, id, seconds, raw);
      for (const signature of offered) ok = (await safeEqual(signature, expected)) || ok;
    }
    if (!ok) throw new WebhookError(401, 'webhook-signature does not match');
    return id;
  };
}
