import type { JWK, JWSHeaderParameters } from 'jose';
import { isObject } from '../is-object.js';
import { loadJose } from '../load-jose.js';
import type { AgentCardSignature } from '../schemas/agent-card.js';
import { canonicalAgentCard, canonicalize, EXPLICIT_PRESENCE } from './canonical-card.js';

// Signed agent cards (spec §8.4): JWS (RFC 7515) with a detached payload = the RFC 8785 (JCS) canonical form of the
// card without `signatures` and without proto default values, as the official SDKs define it (so their verifiers
// accept our signatures and we accept theirs). Several signatures may coexist (key rotation).

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

/** Proto fields REQUIRED in v1.0, kept even when empty by the spec's own example (`"description": ""`). */
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

/** Booleans whose explicit `false` the spec example's reading keeps (`pkceRequired` was wrongly among them). */
const SPEC_EXAMPLE_PRESENCE = new Set([...EXPLICIT_PRESENCE, 'pkceRequired']);

/** The spec example's reading (required fields kept when empty), which earlier releases signed: verified only. */
function specExampleForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(specExampleForm);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    const keep = REQUIRED.has(k) || (SPEC_EXAMPLE_PRESENCE.has(k) && typeof v === 'boolean');
    if (!keep && (v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0))) continue;
    out[k] = specExampleForm(v);
  }
  return out;
}

/**
 * The payloads a signature may have been made over, ours first: the canonical form; the same with non-ASCII
 * characters as `\uXXXX` escapes (the Python SDK serialises with `json.dumps`, which escapes them); the spec
 * example's reading.
 */
function verificationPayloads(card: Record<string, unknown>): string[] {
  const canonical = canonicalAgentCard(card);
  const { signatures: _excluded, ...rest } = card;
  const forms = [
    canonical,
    canonical.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    canonicalize(specExampleForm(rest)),
  ];
  return [...new Set(forms.filter((f): f is string => f !== undefined))];
}

const encoder = new TextEncoder();

/** Returns the card with one signature per key (replacing any it had). */
export async function signAgentCard<T extends object>(
  card: T,
  keys: CardSigningKey[],
): Promise<T & { signatures: AgentCardSignature[] }> {
  if (keys.length === 0) throw new Error('signAgentCard needs at least one key');
  const payload = encoder.encode(canonicalAgentCard(card));
  const { FlattenedSign, importJWK } = await loadJose();
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
 * a JWKS URL) over the card as received: over its canonical form, as this library and the official SDKs sign it, or
 * over the forms other signers are known to use (see `verificationPayloads`). On failure `reason` says why (for every
 * signature).
 */
export async function verifyAgentCard(card: unknown, keys: CardVerificationKeys): Promise<CardVerification> {
  if (typeof card !== 'object' || card === null) return { valid: false, reason: 'the card is not a JSON object' };
  const signatures = (card as { signatures?: unknown }).signatures;
  if (!Array.isArray(signatures) || signatures.length === 0)
    return { valid: false, reason: 'the card has no signatures' };
  const { base64url, createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, flattenedVerify } = await loadJose();
  let payloads: string[];
  try {
    payloads = verificationPayloads(card as Record<string, unknown>).map((p) => base64url.encode(p));
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
    let failure: unknown;
    for (const payload of payloads) {
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
        failure = error;
        // Only a signature mismatch can depend on the payload: a missing key or a refused algorithm cannot.
        if ((error as { code?: string }).code !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') break;
      }
    }
    reasons.push(`signature ${i} (kid ${header.kid}): ${describe(failure)}`);
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
