import type { PushUrlPolicy } from '@a2a/core';
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
   * (`allow: ['127.0.0.1', 'agents.internal']`).
   */
  ssrf?: PushUrlPolicy;
  /** Replaces the guarded fetch (tests, other runtimes). The URL checks still run. */
  fetch?: RemoteFetch;
  /** Longest wait for the agent's response headers. Default 15 s. */
  timeoutMs?: number;
}

/** Every request the playground's server makes to a remote agent goes through here. */
export class RemoteAgents {
  private readonly guard;
  private readonly fetch: RemoteFetch;
  private readonly timeoutMs: number;
  private readonly allowHint =
    "To reach it anyway (local development), mount the playground with remote: { ssrf: { allow: ['<host>'] } }.";

  constructor(options: RemoteOptions = {}) {
    this.guard = createTargetGuard(options.ssrf);
    this.fetch = options.fetch ?? createGuardedFetch(this.guard);
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** Throws {@link RefusedTargetError} for a URL the guard refuses. */
  check(raw: string): URL {
    return checkTargetUrl(this.guard, raw, this.allowHint);
  }

  /**
   * Fetches `raw` after the checks; redirects are not followed. Refusals and network failures reject with a
   * {@link RefusedTargetError} whose message the page shows.
   */
  async request(raw: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const url = this.check(raw);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const headersSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    // The timeout covers the response headers only: a stream may then run as long as the page keeps it open.
    const controller = new AbortController();
    const onAbort = () => controller.abort(headersSignal.reason);
    headersSignal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.fetch(url.href, {
        ...init,
        signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
      });
    } catch (error) {
      if (error instanceof BlockedAddressError) throw new RefusedTargetError(describeBlocked(error, this.allowHint));
      if (timeout.aborted)
        throw new RefusedTargetError(`No answer from ${url.origin} within ${this.timeoutMs} ms`, 502);
      const cause = error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error);
      throw new RefusedTargetError(`Could not reach ${url.origin}: ${cause}`, 502);
    } finally {
      headersSignal.removeEventListener('abort', onAbort);
    }
  }
}

export { RefusedTargetError };
