import { readCapped } from '@a2a/core/internal';
import { type CardReport, checkSignature, signatureJku, validateCard } from './card-check.js';
import { json, readRequestBody } from './limits.js';
import { RefusedTargetError, type RemoteAgents } from './remote.js';

const MAX_CARD_BYTES = 1 << 20;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const headerRecord = (v: unknown): Record<string, string> =>
  isObject(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

/**
 * `POST {base}/api/card`: `{ url, headers? }` fetches a remote card through the SSRF guard (and its JWKS when a
 * signature names one); `{ url, card, jwks? }` checks a card the page fetched itself from its own origin. Answers a
 * {@link CardReport}, or `{ error }` with 400/403/502.
 */
export async function cardEndpoint(request: Request, remote: RemoteAgents | undefined): Promise<Response> {
  const bytes = await readRequestBody(request, MAX_CARD_BYTES);
  if (!bytes) return json(413, { error: 'The request is too large' });
  let input: unknown;
  try {
    input = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return json(400, { error: 'The request body is not JSON' });
  }
  if (!isObject(input) || typeof input.url !== 'string')
    return json(400, { error: 'Give the card URL as { "url": ... }' });
  const url = input.url;
  if ('card' in input) return json(200, await report(url, input.card, input.jwks));
  if (!remote) return json(403, { error: 'Remote agents are disabled on this playground (remote: false)' });
  try {
    const card = await fetchJson(remote, url, headerRecord(input.headers), 'agent card');
    const jku = signatureJku(card);
    if (!jku) return json(200, await report(url, card, undefined));
    let jwks: unknown;
    let problem: string | undefined;
    try {
      jwks = await fetchJson(remote, new URL(jku, url).href, {}, 'JWKS');
    } catch (error) {
      problem = `the JWKS at ${jku} could not be fetched: ${error instanceof Error ? error.message : String(error)}`;
    }
    return json(200, await report(url, card, jwks, problem));
  } catch (error) {
    if (error instanceof RefusedTargetError) {
      return json(error.status, { error: error.message });
    }
    throw error;
  }
}

async function report(url: string, card: unknown, jwks: unknown, jwksProblem?: string): Promise<CardReport> {
  return { url, card, ...validateCard(card), signature: await checkSignature(card, jwks, jwksProblem) };
}

async function fetchJson(remote: RemoteAgents, url: string, headers: Record<string, string>, what: string) {
  const response = await remote.request(url, { method: 'GET', headers: { accept: 'application/json', ...headers } });
  const bytes = await readCapped(response.body, MAX_CARD_BYTES);
  if (!response.ok) throw new RefusedTargetError(`The ${what} request was answered ${response.status}`, 502);
  if (!bytes) throw new RefusedTargetError(`The ${what} is larger than ${MAX_CARD_BYTES} bytes`, 502);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    throw new RefusedTargetError(`The ${what} at ${url} is not JSON`, 502);
  }
}
