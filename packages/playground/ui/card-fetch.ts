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

/** Same-origin: the page fetches the card (and its JWKS) itself and the server checks it; else the server fetches. */
export async function fetchCard(api: PlaygroundApi, url: string, headers: Record<string, string>): Promise<CardReport> {
  const target = new URL(url, location.href);
  let answer: { status: number; json: unknown };
  if (target.origin === location.origin) {
    api.wire.add({ kind: 'request', method: 'GET', url: target.href, headers });
    const response = await fetch(target, { headers: { accept: 'application/json', ...headers } });
    const text = await response.text();
    api.wire.add({ kind: 'response', status: response.status, url: target.href, body: text });
    if (!response.ok) throw new Error(`The agent card request was answered ${response.status}`);
    let card: unknown;
    try {
      card = JSON.parse(text);
    } catch {
      throw new Error('The agent card is not JSON');
    }
    const jwks = await ownJwks(card, target);
    answer = await postJson(api, '/api/card', { url: target.href, card, ...(jwks ? { jwks } : {}) });
  } else {
    answer = await postJson(api, '/api/card', { url: target.href, headers });
  }
  const json = answer.json as CardReport & { error?: string };
  if (answer.status !== 200) throw new Error(json.error ?? `The playground answered ${answer.status}`);
  return json;
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
