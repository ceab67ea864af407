// Where the card of what the user typed in the connect field is: shared by the server (`/api/card`) and the page
// (its own-origin fetch, ui/card-fetch.ts), so both read an agent's address the same way. No Node APIs here.

import { isObject } from './json-object.js';

/** Where an agent's card is published under its address (A2A's well-known URI, RFC 8615). */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';

/**
 * The URLs to try, in order: what was typed, then, unless it names a JSON file (a card URL), the typed address's
 * `/.well-known/agent-card.json`, as the official SDK's `createFromUrl()` and @a2a/client read an agent's address.
 */
export function cardLocations(typed: URL): URL[] {
  if (typed.pathname.endsWith('.json')) return [typed];
  const base = new URL(typed);
  base.search = '';
  base.hash = '';
  return [typed, new URL(`${base.href.replace(/\/+$/, '')}${WELL_KNOWN_CARD_PATH}`)];
}

/** A URL that answered, but not with a card: what it answered (`answered 404`, `is not JSON`). */
export interface CardMiss {
  url: string;
  miss: string;
}

/** One location's answer: JSON, or why it is no card. */
export type CardAttempt = { card: unknown } | { miss: string };

/**
 * The first of the typed URL's locations ({@link cardLocations}) whose answer is a JSON object, or every miss. `fetch`
 * reads one location; `alone` tells it this is the only try left with nothing missed before (a single card URL), so
 * its own error says more than a list of misses would, and JSON that is not an object is returned for the checks to
 * explain.
 */
export async function findCard(
  typed: URL,
  fetch: (cardUrl: URL, alone: boolean) => Promise<CardAttempt>,
): Promise<{ cardUrl: URL; card: unknown } | { misses: CardMiss[] }> {
  const locations = cardLocations(typed);
  const misses: CardMiss[] = [];
  for (const [i, cardUrl] of locations.entries()) {
    const alone = i === locations.length - 1 && misses.length === 0;
    const attempt = await fetch(cardUrl, alone);
    if ('miss' in attempt) misses.push({ url: cardUrl.href, miss: attempt.miss });
    else if (alone || isObject(attempt.card)) return { cardUrl, card: attempt.card };
    else misses.push({ url: cardUrl.href, miss: 'is not a JSON object' });
  }
  return { misses };
}

/** The error of a connect whose URLs all missed: each URL with what it answered. */
export function noCardMessage(misses: readonly CardMiss[]): string {
  const tried = misses.map((m) => `${m.url.slice(0, 200)} (${m.miss})`);
  return `No agent card at ${tried.join(' nor at ')}: give the agent's address or its card's URL`;
}
