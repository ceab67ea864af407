import { onDemand } from '../on-demand.js';
import type { AgentCardSignature } from '../schemas/agent-card.js';
import type { CardSigningKey, CardVerification, CardVerificationKeys } from './card-signing.js';

// The card signing functions as `@a2a/core` exports them: card-signing.ts, with the RFC 8785 canonical form and the
// `canonicalize` package, is imported at the first call (like jose), not at start-up (docs/performance.md,
// "Footprint").
const cardSigning = onDemand(() => import('./card-signing.js'));

/** Returns the card with one signature per key (replacing any it had). */
export async function signAgentCard<T extends object>(
  card: T,
  keys: CardSigningKey[],
): Promise<T & { signatures: AgentCardSignature[] }> {
  return (await cardSigning()).signAgentCard(card, keys);
}

/**
 * Verifies that at least one of the card's signatures was made by one of `keys` (a JWKS, a list of public JWKs, or
 * a JWKS URL) over the card as received: over its canonical form, as this library and the official SDKs sign it, or
 * over the forms other signers are known to use. On failure `reason` says why (for every signature).
 */
export async function verifyAgentCard(card: unknown, keys: CardVerificationKeys): Promise<CardVerification> {
  return (await cardSigning()).verifyAgentCard(card, keys);
}
