import { DEFAULT_MAX_JSON_DEPTH, tooDeepPath } from '@a2a/core/internal';
import type { AgentScopes } from './agent-scope.js';
import { type CardReport, checkSignature, signatureJku, validateCard } from './card-check.js';
import { findCard, noCardMessage } from './card-location.js';
import { isA2AContentType, userHeaders } from './forward-headers.js';
import { isObject } from './json-object.js';
import { json, readRequestBody } from './limits.js';
import { RefusedTargetError, type RemoteAgents } from './remote.js';

const MAX_REQUEST_BYTES = 1 << 20;

const headerRecord = (v: unknown): Record<string, string> =>
  isObject(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

/**
 * `POST {base}/api/card`: `{ url, headers? }` fetches a remote card through the SSRF guard (and its JWKS when a
 * signature names one); `{ url, card, jwks? }` checks a card the page fetched itself from its own origin. Answers a
 * {@link CardReport}, or `{ error }` with 4xx, or 502/504 for a remote that failed.
 */
export async function cardEndpoint(
  request: Request,
  remote: RemoteAgents | undefined,
  scopes: AgentScopes | undefined,
): Promise<Response> {
  if (!isA2AContentType(request.headers.get('content-type'))) {
    return json(415, { error: 'Send the request as application/json' });
  }
  const bytes = await readRequestBody(request, MAX_REQUEST_BYTES);
  if (!bytes) return json(413, { error: 'The request is too large' });
  let input: unknown;
  try {
    input = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return json(400, { error: 'The request body is not JSON' });
  }
  // Validating or serialising a deeper card would recurse past the stack: refused before either.
  // The card sits one level down, in `{ url, card }`.
  if (tooDeepPath(input, DEFAULT_MAX_JSON_DEPTH + 1)) {
    return json(422, { error: `The card is nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels` });
  }
  if (!isObject(input) || typeof input.url !== 'string')
    return json(400, { error: 'Give the card URL as { "url": ... }' });
  const url = input.url;
  if ('card' in input) return json(200, await report(url, input.card, input.jwks));
  if (!remote || !scopes) return json(403, { error: 'Remote agents are disabled on this playground (remote: false)' });
  try {
    const { cardUrl, card } = await remoteCard(remote, remote.check(url), headerRecord(input.headers));
    scopes.remember(cardUrl, card);
    // The report names the card's own URL (an address typed resolves to its well-known card): the page's proxy calls
    // then name it as the card, and the scopes above are kept under it.
    const found = cardUrl.href;
    const jku = signatureJku(card);
    if (!jku) return json(200, await report(found, card, undefined));
    let jwks: unknown;
    let problem: string | undefined;
    try {
      const jwksUrl = new URL(jku, cardUrl);
      // The app's allow list covers the card's own host only: a card cannot point the server elsewhere inside it.
      jwks = await remote.fetchJson(jwksUrl.href, new Headers(), 'JWKS', {
        trusted: jwksUrl.hostname === cardUrl.hostname,
      });
    } catch (error) {
      const why = error instanceof RefusedTargetError ? error.message : 'it is not a URL';
      problem = `the JWKS at ${jku.slice(0, 200)} could not be fetched: ${why}`;
    }
    return json(200, await report(found, card, jwks, problem));
  } catch (error) {
    if (error instanceof RefusedTargetError) return json(error.status, { error: error.message });
    throw error;
  }
}

/**
 * The card of what was typed (see {@link findCard}). Refusals, timeouts and unreachable agents end the search (the
 * next URL is on the same origin); when every URL missed, the error names each with its answer.
 */
async function remoteCard(
  remote: RemoteAgents,
  typed: URL,
  headers: Record<string, string>,
): Promise<{ cardUrl: URL; card: unknown }> {
  const found = await findCard(typed, async (cardUrl, alone) => {
    try {
      return { card: await remote.fetchJson(cardUrl.href, userHeaders(headers), 'agent card', { trusted: true }) };
    } catch (error) {
      if (error instanceof RefusedTargetError && error.miss && !alone) return { miss: error.miss };
      throw error;
    }
  });
  if ('misses' in found) throw new RefusedTargetError(noCardMessage(found.misses), 502);
  return found;
}

async function report(url: string, card: unknown, jwks: unknown, jwksProblem?: string): Promise<CardReport> {
  return { url, card, ...validateCard(card), signature: await checkSignature(card, jwks, jwksProblem) };
}
