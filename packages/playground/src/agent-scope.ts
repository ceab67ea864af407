import { BoundedCache } from '@a2a/core/internal';
import { isObject } from './json-object.js';
import { RefusedTargetError, type RemoteAgents } from './remote.js';

/**
 * Where an agent's card says it can be called: the card URL itself, every `supportedInterfaces` URL (v1.0), and the
 * `url` and `additionalInterfaces` of a v0.3 card, relative ones resolved against the card URL. Malformed entries are
 * skipped (the page may still call an agent whose card has other flaws).
 */
export function agentUrls(cardUrl: URL, card: unknown): URL[] {
  const raw: unknown[] = [];
  if (isObject(card)) {
    for (const key of ['supportedInterfaces', 'additionalInterfaces']) {
      const list = card[key];
      if (Array.isArray(list)) for (const i of list) if (isObject(i)) raw.push(i.url);
    }
    raw.push(card.url);
  }
  const urls = [cardUrl];
  for (const u of raw.slice(0, 64)) {
    if (typeof u !== 'string') continue;
    try {
      const url = new URL(u, cardUrl);
      if (url.protocol === 'http:' || url.protocol === 'https:') urls.push(url);
    } catch {
      // not a URL: not callable
    }
  }
  return urls;
}

/**
 * Whether `target` is at or below `base`: same origin, and the same path or one under it (`/rpc` covers `/rpc` and
 * `/rpc/tasks/1`, not `/rpc-admin`). Both are parsed URLs, so `..` segments are already resolved.
 */
export function isUnder(target: URL, base: URL): boolean {
  if (target.origin !== base.origin) return false;
  const path = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return target.pathname === base.pathname || target.pathname.startsWith(path);
}

// Percent-encoded dots, slashes and backslashes a server might decode into other path segments after our check.
const ENCODED_SEPARATORS = /%(2e|2f|5c)/i;

/**
 * The agents the proxy may call, per card URL: learned from the card as the server itself fetched it (never from a
 * card the page sends), kept a short while in a small cache so a chat does not refetch the card on every call.
 */
export class AgentScopes {
  private readonly cache: BoundedCache<string, URL[]>;

  constructor(
    private readonly remote: RemoteAgents,
    ttlMs = 60_000,
    maxEntries = 100,
  ) {
    this.cache = new BoundedCache({ max: maxEntries, ttlMs });
  }

  /** Records the card the server fetched from `cardUrl`. */
  remember(cardUrl: URL, card: unknown): URL[] {
    const urls = agentUrls(cardUrl, card);
    this.cache.set(cardUrl.href, urls);
    return urls;
  }

  /**
   * How a call of `target` on behalf of the page connected to `cardUrl` is guarded, or a refusal when the target is
   * not that agent's (nor one the app allows with `allowTargets`). The app's allow list applies on the card's own
   * host only: a card on one host cannot send the proxy into another host's private network.
   */
  async route(target: URL, cardUrl: URL, headers: Headers): Promise<{ trusted: boolean }> {
    if (ENCODED_SEPARATORS.test(target.pathname) || target.pathname.includes('\\')) {
      throw new RefusedTargetError('Refused: the target path contains encoded dots or slashes');
    }
    if (this.remote.allowTargets.some((base) => isUnder(target, base))) return { trusted: true };
    const urls = await this.urlsOf(cardUrl, headers);
    if (!urls.some((base) => isUnder(target, base))) {
      const shown = `${target.origin}${target.pathname}`.slice(0, 200);
      throw new RefusedTargetError(
        `Refused: ${shown} is not an interface of the agent card ${cardUrl.href.slice(0, 200)}; the proxy only calls ` +
          'the agent the page is connected to. To allow other targets, mount the playground with ' +
          `remote: { allowTargets: ['${target.origin}/'] }.`,
      );
    }
    return { trusted: target.hostname === cardUrl.hostname };
  }

  private async urlsOf(cardUrl: URL, headers: Headers): Promise<URL[]> {
    const hit = this.cache.get(cardUrl.href);
    if (hit) return hit;
    const card = await this.remote.fetchJson(cardUrl.href, headers, 'agent card', { trusted: true });
    return this.remember(cardUrl, card);
  }
}
