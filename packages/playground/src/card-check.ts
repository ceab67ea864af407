import { verifyAgentCard } from '@a2a/core';
import { fromV03AgentCard } from '@a2a/core/internal';
import { AgentCardSchema } from '@a2a/core/schemas';
import { isObject } from './json-object.js';

export interface CardProblem {
  /** Dotted path of the field (`skills.0.id`), '' for the card itself. */
  path: string;
  message: string;
}

export interface CardInterface {
  url: string;
  protocolBinding: string;
  protocolVersion: string;
}

export type SignatureStatus =
  | { status: 'unsigned'; detail: string }
  | { status: 'verified'; detail: string; kid: string; alg: string }
  | { status: 'invalid'; detail: string }
  | { status: 'unverifiable'; detail: string };

/** What the card pane shows: the card as received, the protocol version it was read as, its problems. */
export interface CardReport {
  url: string;
  card: unknown;
  version: '1.0' | '0.3' | 'unknown';
  errors: CardProblem[];
  /** The interfaces the card offers, read the v1.0 way (a v0.3 card's `url` and `additionalInterfaces` too). */
  interfaces: CardInterface[];
  signature: SignatureStatus;
}

/** Validates a card with core's schemas: v1.0 as is, v0.3 (a top-level `url`) through core's translation first. */
export function validateCard(card: unknown): Pick<CardReport, 'version' | 'errors' | 'interfaces'> {
  if (!isObject(card)) {
    return { version: 'unknown', errors: [{ path: '', message: 'the card is not a JSON object' }], interfaces: [] };
  }
  const v03 = !('supportedInterfaces' in card) && typeof card.url === 'string';
  let input: unknown = card;
  if (v03) {
    try {
      input = fromV03AgentCard(card);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { version: '0.3', errors: [{ path: '', message }], interfaces: [] };
    }
  }
  const parsed = AgentCardSchema.safeParse(input);
  const errors = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  return { version: v03 ? '0.3' : '1.0', errors, interfaces: interfacesOf(input) };
}

/** The well-formed entries of `supportedInterfaces`, so the page can still call an agent whose card has flaws. */
function interfacesOf(card: unknown): CardInterface[] {
  const list = isObject(card) && Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  return list.flatMap((i): CardInterface[] =>
    isObject(i) && typeof i.url === 'string' && typeof i.protocolBinding === 'string'
      ? [{ url: i.url, protocolBinding: i.protocolBinding, protocolVersion: String(i.protocolVersion ?? '') }]
      : [],
  );
}

/** The `jku` (JWKS URL) of the card's first signature that names one. */
export function signatureJku(card: unknown): string | undefined {
  const signatures = isObject(card) && Array.isArray(card.signatures) ? card.signatures : [];
  for (const s of signatures) {
    if (!isObject(s) || typeof s.protected !== 'string') continue;
    try {
      const header = JSON.parse(Buffer.from(s.protected, 'base64url').toString('utf8')) as unknown;
      if (isObject(header) && typeof header.jku === 'string') return header.jku;
    } catch {
      // not a JSON header: verifyAgentCard reports it
    }
  }
  return undefined;
}

/** The signature status, with the JWKS the caller fetched (or could not fetch: `jwksProblem`). */
export async function checkSignature(card: unknown, jwks: unknown, jwksProblem?: string): Promise<SignatureStatus> {
  const signatures = isObject(card) ? card.signatures : undefined;
  if (!Array.isArray(signatures) || signatures.length === 0) {
    return { status: 'unsigned', detail: 'the card has no signatures' };
  }
  if (jwksProblem) return { status: 'unverifiable', detail: jwksProblem };
  const keys = isObject(jwks) && Array.isArray(jwks.keys) ? (jwks as { keys: [] }) : undefined;
  if (!keys) return { status: 'unverifiable', detail: 'no JWKS to verify the signature with (no jku in its header)' };
  try {
    const result = await verifyAgentCard(card, keys);
    return result.valid
      ? { status: 'verified', detail: `signed by kid ${result.kid} (${result.alg})`, kid: result.kid, alg: result.alg }
      : { status: 'invalid', detail: result.reason };
  } catch (error) {
    return { status: 'invalid', detail: error instanceof Error ? error.message : String(error) };
  }
}
