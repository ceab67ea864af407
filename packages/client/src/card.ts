import type { AgentCard, AgentInterface } from '@a2a/core';
import { fromStatusError, invalidResponse } from './errors.js';
import { readJson, send } from './http.js';
import { callDeadline, maxBodyBytes } from './limits.js';
import type { ProtocolBinding, TransportOptions } from './options.js';

export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';

/**
 * Where to look for a card: a URL ending in `.json` is the card itself; any other URL is a base whose
 * `/.well-known/agent-card.json` is tried, then the origin's when the base had a path (RFC 8615 puts it at the root).
 */
export function cardUrls(location: string | URL): string[] {
  const url = new URL(location);
  url.hash = '';
  if (url.pathname.endsWith('.json')) return [url.href];
  url.search = '';
  const base = url.href.replace(/\/+$/, '');
  const root = new URL(WELL_KNOWN_CARD_PATH, url).href;
  const under = `${base}${WELL_KNOWN_CARD_PATH}`;
  return under === root ? [root] : [under, root];
}

/** Fetches an agent's card from its origin, a base URL, or the card's own URL, and checks it names its interfaces. */
export async function resolveAgentCard(
  location: string | URL,
  options: TransportOptions & { signal?: AbortSignal; readCard?: (json: unknown, from: string) => AgentCard } = {},
): Promise<AgentCard> {
  const urls = cardUrls(location);
  // One deadline for the resolution, both URLs included.
  const deadline = callDeadline(options, options.signal ? { signal: options.signal } : {}, 'GetAgentCard');
  try {
    for (const [i, url] of urls.entries()) {
      const init = { method: 'GET', headers: { accept: 'application/json' } };
      const response = await send(options, { operation: 'GetAgentCard', url }, init, deadline);
      const body = await readJson(response, maxBodyBytes(options), deadline);
      if (response.status === 404 && i < urls.length - 1) continue;
      // A 404 here is no card, not the TaskNotFound the status means on an operation.
      if (response.status === 404) throw invalidResponse(`no agent card at ${urls.join(' or ')} (HTTP 404)`);
      if (!response.ok) throw fromStatusError(response.status, body);
      return (options.readCard ?? checkCard)(body, url);
    }
  } finally {
    deadline.stop();
  }
  throw invalidResponse(`no agent card at ${urls.join(' or ')}`); // unreachable: the last URL answers or throws
}

const isInterface = (i: unknown): boolean =>
  typeof i === 'object' &&
  i !== null &&
  typeof (i as AgentInterface).url === 'string' &&
  typeof (i as AgentInterface).protocolBinding === 'string';

/**
 * The shape the client needs (a name, and interfaces that each have a URL and a binding), not a full validation:
 * that is `@a2a/core/schemas`' job.
 */
export function checkCard(body: unknown, from = 'the agent'): AgentCard {
  const card = body as Partial<AgentCard> | undefined;
  if (typeof card !== 'object' || card === null || Array.isArray(card)) {
    throw invalidResponse(`the agent card at ${from} is not a JSON object`);
  }
  const interfaces = card.supportedInterfaces;
  if (!Array.isArray(interfaces) || !interfaces.length || !interfaces.every(isInterface)) {
    throw invalidResponse(`the agent card at ${from} lists no supportedInterfaces with a url and protocolBinding`);
  }
  if (typeof card.name !== 'string') throw invalidResponse(`the agent card at ${from} has no name`);
  return card as AgentCard;
}

/**
 * The interface to use: of those with protocol version `version` (Major or Major.Minor; a listed `1.0.1` matches `1`
 * and `1.0`), the first binding in `preference` the card offers, in the card's order within one binding.
 */
export function pickInterface(
  card: AgentCard,
  preference: readonly ProtocolBinding[] = ['JSONRPC', 'HTTP+JSON'],
  version = '1',
): AgentInterface & { protocolBinding: ProtocolBinding } {
  const matching = card.supportedInterfaces.filter((i) => {
    const listed = String(i.protocolVersion ?? '');
    return listed === version || listed.startsWith(`${version}.`);
  });
  for (const binding of preference) {
    const found = matching.find((i) => i.protocolBinding.toUpperCase() === binding);
    if (found) return { ...found, protocolBinding: binding };
  }
  const offered = card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`).join(', ');
  const label = version === '1' ? 'v1.0' : `v${version}`;
  throw invalidResponse(
    `the agent offers no ${label} interface with ${preference.join(' or ')} (it offers: ${offered || 'none'})`,
  );
}
