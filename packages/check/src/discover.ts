import { type Answer, NoAnswer, request } from './http.js';

/** Where A2A clients look for a card (spec §8.2), and where v0.2 clients looked. */
export const WELL_KNOWN_PATH = '/.well-known/agent-card.json';
export const LEGACY_PATH = '/.well-known/agent.json';

/** A card found, or why none was (`unreachable`: no answer at all, exit code 2). */
export type Discovery =
  | { found: true; cardUrl: string; card: Record<string, unknown>; answer: Answer; anonymousStatus: number }
  | { found: false; reason: string };

const MAX_CARD_BYTES = 1024 * 1024;

/** The URLs to try: the card URL given, else the origin's well-known path, then the legacy one. */
export function cardUrls(input: string): string[] {
  const url = new URL(input);
  if (url.pathname.endsWith('.json')) return [url.href];
  return [new URL(WELL_KNOWN_PATH, url.origin).href, new URL(LEGACY_PATH, url.origin).href];
}

/**
 * Reads the card without credentials first (it is meant to be public); if that is refused and credentials were
 * given, again with them, so the other checks can still run (the refusal is reported by `security.card-public`).
 */
export async function discover(input: string, headers: Record<string, string>, timeoutMs: number): Promise<Discovery> {
  let urls: string[];
  try {
    urls = cardUrls(input);
  } catch {
    return { found: false, reason: `not a URL: ${input}` };
  }
  const misses: string[] = [];
  for (const cardUrl of urls) {
    let answer: Answer;
    try {
      answer = await request(cardUrl, { timeoutMs, maxBytes: MAX_CARD_BYTES, headers: { 'A2A-Version': '1.0' } });
      const anonymousStatus = answer.status;
      if ((answer.status === 401 || answer.status === 403) && Object.keys(headers).length > 0) {
        answer = await request(cardUrl, {
          timeoutMs,
          maxBytes: MAX_CARD_BYTES,
          headers: { 'A2A-Version': '1.0', ...headers },
        });
      }
      const card = answer.json;
      if (answer.status === 200 && typeof card === 'object' && card !== null && !Array.isArray(card)) {
        return { found: true, cardUrl, card: card as Record<string, unknown>, answer, anonymousStatus };
      }
      misses.push(`${cardUrl} answered ${answer.status}${answer.json === undefined ? ' (not JSON)' : ''}`);
    } catch (error) {
      if (error instanceof NoAnswer) return { found: false, reason: `${cardUrl}: ${error.message}` };
      throw error;
    }
  }
  return { found: false, reason: `no agent card: ${misses.join('; ')}` };
}
