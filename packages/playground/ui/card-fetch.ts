import { type CardAttempt, findCard, noCardMessage } from '../src/card-location.js';
import type { CardReport } from './card-pane.js';
import type { WireLog } from './wire-log.js';

/** Where the playground's own API is (`basePath`) and the wire log its calls go to. */
export interface PlaygroundApi {
  basePath: string;
  wire: WireLog;
}

async function postJson(api: PlaygroundApi, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const url = `${api.basePath}${path}`;
  const text = JSON.stringify(body);
  api.wire.add({ kind: 'request', method: 'POST', url, body: text });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-playground-api': '1' },
    body: text,
  });
  const answer = await response.text();
  api.wire.add({ kind: 'response', status: response.status, url, body: answer });
  try {
    return { status: response.status, json: JSON.parse(answer) };
  } catch {
    return { status: response.status, json: { error: `The playground answered ${response.status}` } };
  }
}

/**
 * What was typed in the connect field as a URL: an absolute one, or a path on the page's own origin (the default card
 * is `/.well-known/agent-card.json`). Anything else is not a URL: resolving it against the page would fetch a page path.
 */
export function typedUrl(typed: string): URL {
  const text = typed.trim();
  if (text !== '' && !/\s/.test(text)) {
    if (text.startsWith('/')) return new URL(text, location.href);
    try {
      return new URL(text);
    } catch {
      // not absolute: refused below
    }
  }
  throw new Error(
    `${JSON.stringify(text.slice(0, 200))} is not a URL: give the agent's address (https://agent.example/) or its card's URL`,
  );
}

/**
 * Same-origin: the page fetches the card (and its JWKS) itself and the server checks it; else the server fetches. An
 * agent's address finds its card as the server's does ({@link findCard}).
 */
export async function fetchCard(api: PlaygroundApi, url: string, headers: Record<string, string>): Promise<CardReport> {
  const target = typedUrl(url);
  let answer: { status: number; json: unknown };
  if (target.origin === location.origin) {
    const { cardUrl, card } = await ownCard(api, target, headers);
    const jwks = await ownJwks(card, cardUrl);
    answer = await postJson(api, '/api/card', { url: cardUrl.href, card, ...(jwks ? { jwks } : {}) });
  } else {
    answer = await postJson(api, '/api/card', { url: target.href, headers });
  }
  const json = answer.json as CardReport & { error?: string };
  if (answer.status !== 200) throw new Error(json.error ?? `The playground answered ${answer.status}`);
  return json;
}

/** The typed URL's card, fetched by the page itself and logged on the wire (see {@link findCard}). */
async function ownCard(
  api: PlaygroundApi,
  typed: URL,
  headers: Record<string, string>,
): Promise<{ cardUrl: URL; card: unknown }> {
  const found = await findCard(typed, async (cardUrl, alone) => {
    api.wire.add({ kind: 'request', method: 'GET', url: cardUrl.href, headers });
    const response = await fetch(cardUrl, { headers: { accept: 'application/json', ...headers } });
    const text = await response.text();
    api.wire.add({ kind: 'response', status: response.status, url: cardUrl.href, body: text });
    let attempt: CardAttempt;
    if (!response.ok) attempt = { miss: `answered ${response.status}` };
    else {
      try {
        attempt = { card: JSON.parse(text) };
      } catch {
        attempt = { miss: 'is not JSON' };
      }
    }
    // A single card URL keeps its own error, as before addresses were read.
    if (alone && 'miss' in attempt)
      throw new Error(
        attempt.miss === 'is not JSON' ? 'The agent card is not JSON' : `The agent card request was ${attempt.miss}`,
      );
    return attempt;
  });
  if ('misses' in found) throw new Error(noCardMessage(found.misses));
  return found;
}

/** The JWKS a same-origin card's signature names (`jku`), fetched by the page. */
async function ownJwks(card: unknown, cardUrl: URL): Promise<unknown> {
  const signatures = (card as { signatures?: { protected?: unknown }[] })?.signatures;
  const header = Array.isArray(signatures) ? signatures[0]?.protected : undefined;
  if (typeof header !== 'string') return undefined;
  try {
    const jku = (JSON.parse(atob(header.replace(/-/g, '+').replace(/_/g, '/'))) as { jku?: string }).jku;
    if (!jku || new URL(jku, cardUrl).origin !== location.origin) return undefined;
    const response = await fetch(new URL(jku, cardUrl));
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}
