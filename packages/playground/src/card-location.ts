// Where the card of what the user typed in the connect field is: shared by the server (`/api/card`) and the page
// (its own-origin fetch, ui/card-fetch.ts), so both read an agent's address the same way. No Node APIs here.

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

/** The error of a connect whose URLs all missed: each URL with what it answered. */
export function noCardMessage(misses: readonly CardMiss[]): string {
  const tried = misses.map((m) => `${m.url.slice(0, 200)} (${m.miss})`);
  return `No agent card at ${tried.join(' nor at ')}: give the agent's address or its card's URL`;
}
