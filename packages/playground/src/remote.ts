import type { PushUrlGuard, PushUrlPolicy } from '@a2a/core';
import { DEFAULT_MAX_JSON_DEPTH, readCapped, tooDeepPath } from '@a2a/core/internal';
import { createGuardedFetch } from '@a2a/core/node';
import {
  BlockedAddressError,
  checkTargetUrl,
  createTargetGuard,
  describeBlocked,
  RefusedTargetError,
} from './target-guard.js';

export type RemoteFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface RemoteOptions {
  /**
   * The SSRF policy of remote agents (core's push-webhook guard): only public addresses unless allow-listed
   * (`allow: ['127.0.0.1', 'agents.internal']`). The allow list applies to the card URLs the page connects to and to
   * the interfaces and JWKS those cards name on the card's own host; a card cannot send the proxy to another host's
   * private address.
   */
  ssrf?: PushUrlPolicy;
  /**
   * URL prefixes the proxy may call besides the interfaces of the card the page is connected to (`'https://a.test/'`
   * for a whole origin, `'https://a.test/rpc'` for that path and below). The SSRF policy still applies. Default none.
   */
  allowTargets?: readonly string[];
  /** Replaces the guarded fetch (tests, other runtimes). The URL checks still run. */
  fetch?: RemoteFetch;
  /**
   * Longest wait, in ms: for a card or JWKS the whole fetch, body included; for a proxied call its response headers
   * (a stream then runs as long as the page keeps it open). Default 15 000.
   */
  timeoutMs?: number;
  /** Largest card or JWKS read. Default 1 MiB. */
  maxCardBytes?: number;
}

/** How a fetch is guarded: `trusted` applies the app's allow list, otherwise public addresses only. */
interface Route {
  trusted: boolean;
}

const UNREACHABLE = 'Could not reach the agent';

/** Every request the playground's server makes to a remote agent goes through here. */
export class RemoteAgents {
  private readonly guards: Record<'trusted' | 'strict', PushUrlGuard>;
  private readonly fetches: Record<'trusted' | 'strict', RemoteFetch>;
  readonly timeoutMs: number;
  readonly maxCardBytes: number;
  readonly allowTargets: readonly URL[];
  /** Names the refused host itself (quoted as a JS string), so the hint can be pasted into the app as is. */
  private readonly allowHint = (host: string) =>
    `To reach it anyway (local development), mount the playground with remote: { ssrf: { allow: ['${host.replace(/[\\']/g, '\\$&')}'] } }.`;

  constructor(options: RemoteOptions = {}) {
    this.guards = { trusted: createTargetGuard(options.ssrf), strict: createTargetGuard(options.ssrf, true) };
    this.fetches = {
      trusted: options.fetch ?? createGuardedFetch(this.guards.trusted),
      strict: options.fetch ?? createGuardedFetch(this.guards.strict),
    };
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxCardBytes = options.maxCardBytes ?? 1 << 20;
    this.allowTargets = (options.allowTargets ?? []).map((t) => new URL(t));
  }

  /** Throws {@link RefusedTargetError} for a URL the guard refuses. */
  check(raw: string, route: Route = { trusted: true }): URL {
    return checkTargetUrl(this.guards[route.trusted ? 'trusted' : 'strict'], raw, this.allowHint);
  }

  /**
   * Fetches `raw` after the checks, the time to its response headers bounded; redirects are not followed. Refusals
   * and network failures reject with a {@link RefusedTargetError}: the page shows its message, which never carries
   * the network's own error text.
   */
  async request(raw: string, init: RequestInit, route: Route, signal?: AbortSignal): Promise<Response> {
    const url = this.check(raw, route);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const headersSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    // The timeout covers the response headers only: a stream may then run as long as the page keeps it open.
    const controller = new AbortController();
    const onAbort = () => controller.abort(headersSignal.reason);
    headersSignal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.fetches[route.trusted ? 'trusted' : 'strict'](url.href, {
        ...init,
        signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
      });
    } catch (error) {
      if (error instanceof BlockedAddressError) throw new RefusedTargetError(describeBlocked(error, this.allowHint));
      if (timeout.aborted) throw new RefusedTargetError(`The agent did not answer within ${this.timeoutMs} ms`, 504);
      throw new RefusedTargetError(UNREACHABLE, 502);
    } finally {
      headersSignal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * A card or JWKS: one GET whose whole exchange (headers and body) is bounded in time and bytes, read as JSON no
   * deeper than core's request limit ({@link DEFAULT_MAX_JSON_DEPTH}).
   */
  async fetchJson(raw: string, headers: Headers, what: string, route: Route): Promise<unknown> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    try {
      headers.set('accept', 'application/json');
      const response = await this.request(raw, { method: 'GET', headers }, route, deadline.signal).catch((error) => {
        if (deadline.signal.aborted) throw slow(what, this.timeoutMs);
        throw error;
      });
      const read = await readCapped(response.body, this.maxCardBytes, deadline.signal).catch(() => {
        if (deadline.signal.aborted) throw slow(what, this.timeoutMs);
        throw new RefusedTargetError(`The ${what} could not be read`, 502);
      });
      if (!response.ok) {
        const miss = `answered ${response.status}`;
        throw new RefusedTargetError(`The ${what} request was ${miss}`, 502, miss);
      }
      if (!read) throw new RefusedTargetError(`The ${what} is larger than ${this.maxCardBytes} bytes`, 502);
      let value: unknown;
      try {
        value = JSON.parse(new TextDecoder().decode(read));
      } catch {
        throw new RefusedTargetError(`The ${what} is not JSON`, 502, 'is not JSON');
      }
      if (tooDeepPath(value, DEFAULT_MAX_JSON_DEPTH)) {
        throw new RefusedTargetError(`The ${what} is nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`, 502);
      }
      return value;
    } finally {
      clearTimeout(timer);
    }
  }
}

const slow = (what: string, ms: number) => new RefusedTargetError(`The ${what} did not arrive within ${ms} ms`, 504);

export { RefusedTargetError };
