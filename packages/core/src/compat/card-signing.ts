import canonicalizeModule from 'canonicalize';
import {
  base64url,
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  FlattenedSign,
  flattenedVerify,
  importJWK,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { AgentCardSignature } from '../schemas/agent-card.js';

// Signed agent cards (spec §8.4): JWS (RFC 7515) with a detached payload = the RFC 8785 (JCS) canonical form of the
// card without `signatures`, honouring field presence. Several signatures may coexist (key rotation).

export interface CardSigningKey {
  kid: string;
  /** JWS algorithm. Default: the JWK's `alg`, else ES256. */
  alg?: string;
  privateKey: CryptoKey | JWK;
  /** JWKS URL written into the protected header (`jku`) so verifiers can fetch the public key. */
  jku?: string;
  /** Unprotected header members. */
  header?: Record<string, unknown>;
  /** Public half, for the served JWKS (derived from a JWK `privateKey` when omitted). */
  publicJwk?: JWK;
}

export type CardVerificationKeys = JWK[] | { keys: JWK[] } | string | URL;

export type CardVerification =
  | { valid: true; kid: string; alg: string; header: JWSHeaderParameters }
  | { valid: false; reason: string };

// `canonicalize` is CommonJS typed as an ES default export: under NodeNext the callable is either the module itself
// (Node's CJS interop) or its `default` member (bundlers).
type Canonicalize = (input: unknown) => string | undefined;
const canonicalize: Canonicalize =
  typeof canonicalizeModule === 'function'
    ? (canonicalizeModule as Canonicalize)
    : (canonicalizeModule as unknown as { default: Canonicalize }).default;

/** Fields that are REQUIRED in the proto: kept even when empty (spec example keeps `"description": ""`). */
const REQUIRED = new Set([
  'name',
  'description',
  'supportedInterfaces',
  'version',
  'capabilities',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
  'id',
  'tags',
  'url',
  'protocolBinding',
  'protocolVersion',
  'organization',
  'uri',
  'protected',
  'signature',
]);
/** Proto `optional` scalars: an explicit `false` stays (field presence). */
const OPTIONAL_KEYWORD = new Set(['streaming', 'pushNotifications', 'extendedAgentCard', 'pkceRequired']);

function presence(value: unknown, key: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => presence(v, undefined));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    const keep = REQUIRED.has(k) || (OPTIONAL_KEYWORD.has(k) && typeof v === 'boolean');
    if (!keep && (v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0))) continue;
    out[k] = presence(v, k);
  }
  void key;
  return out;
}

/** The exact bytes that are signed: the card minus `signatures`, default values dropped, JCS-serialised. */
export function canonicalAgentCard(card: object): string {
  const { signatures: _excluded, ...rest } = card as Record<string, unknown>;
  const text = canonicalize(presence(rest, undefined));
  if (text === undefined) throw new Error('The card cannot be canonicalised');
  return text;
}

const encoder = new TextEncoder();

/** Returns the card with one signature per key (replacing any it had). */
export async function signAgentCard<T extends object>(
  card: T,
  keys: CardSigningKey[],
): Promise<T & { signatures: AgentCardSignature[] }> {
  if (keys.length === 0) throw new Error('signAgentCard needs at least one key');
  const payload = encoder.encode(canonicalAgentCard(card));
  const signatures: AgentCardSignature[] = [];
  for (const key of keys) {
    const alg = key.alg ?? (isJwk(key.privateKey) ? key.privateKey.alg : undefined) ?? 'ES256';
    const privateKey = isJwk(key.privateKey) ? await importJWK(key.privateKey, alg) : key.privateKey;
    const jws = await new FlattenedSign(payload)
      .setProtectedHeader({ alg, typ: 'JOSE', kid: key.kid, ...(key.jku && { jku: key.jku }) })
      .sign(privateKey);
    signatures.push({
      protected: jws.protected as string,
      signature: jws.signature,
      ...(key.header && { header: key.header }),
    });
  }
  return { ...card, signatures };
}

/**
 * Verifies that at least one of the card's signatures was made by one of `keys` (a JWKS, a list of public JWKs, or
 * a JWKS URL) over the card as received. On failure `reason` says why (for every signature).
 */
export async function verifyAgentCard(card: unknown, keys: CardVerificationKeys): Promise<CardVerification> {
  if (typeof card !== 'object' || card === null) return { valid: false, reason: 'the card is not a JSON object' };
  const signatures = (card as { signatures?: unknown }).signatures;
  if (!Array.isArray(signatures) || signatures.length === 0)
    return { valid: false, reason: 'the card has no signatures' };
  let payload: string;
  try {
    payload = base64url.encode(canonicalAgentCard(card));
  } catch {
    return { valid: false, reason: 'the card cannot be canonicalised' };
  }
  const keySet =
    typeof keys === 'string' || keys instanceof URL
      ? createRemoteJWKSet(new URL(keys))
      : createLocalJWKSet(Array.isArray(keys) ? { keys } : keys);
  const reasons: string[] = [];
  for (const [i, signature] of signatures.entries()) {
    const s = signature as Partial<AgentCardSignature>;
    if (typeof s?.protected !== 'string' || typeof s.signature !== 'string') {
      reasons.push(`signature ${i}: missing protected header or signature`);
      continue;
    }
    let header: JWSHeaderParameters;
    try {
      header = decodeProtectedHeader({ protected: s.protected }) as JWSHeaderParameters;
    } catch {
      reasons.push(`signature ${i}: the protected header is not valid base64url JSON`);
      continue;
    }
    if (!header.alg || !header.kid) {
      reasons.push(`signature ${i}: the protected header must name alg and kid`);
      continue;
    }
    try {
      await flattenedVerify(
        {
          payload,
          protected: s.protected,
          signature: s.signature,
          ...(s.header && { header: s.header as JWSHeaderParameters }),
        },
        keySet,
      );
      return { valid: true, kid: header.kid, alg: header.alg, header };
    } catch (error) {
      reasons.push(`signature ${i} (kid ${header.kid}): ${describe(error)}`);
    }
  }
  return { valid: false, reason: reasons.join('; ') };
}

function describe(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED')
    return 'signature does not match the card (tampered or wrong key)';
  if (code === 'ERR_JWKS_NO_MATCHING_KEY') return 'no key with this kid';
  if (code === 'ERR_JOSE_ALG_NOT_ALLOWED' || code === 'ERR_JOSE_NOT_SUPPORTED') return 'algorithm not allowed';
  return error instanceof Error ? error.message : String(error);
}

const isJwk = (key: CryptoKey | JWK): key is JWK => typeof (key as JWK).kty === 'string';
