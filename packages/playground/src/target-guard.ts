import { BlockedAddressError, PushUrlGuard, type PushUrlPolicy } from '@a2a/core';
import ipaddr from 'ipaddr.js';
import { badPort } from './bad-ports.js';

/** A URL the playground refuses to fetch, with a message the page shows as is. */
export class RefusedTargetError extends Error {
  /**
   * 403 for a URL the guard refuses, 502 for an agent that could not be reached or answered amiss, 504 for one too slow.
   * `miss`: the remote answered, but not with JSON ("answered 404", "is not JSON"): another URL may hold the card.
   */
  constructor(
    message: string,
    readonly status: 403 | 502 | 504 = 403,
    readonly miss?: string,
  ) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** How to allow-list the refused host: names the host itself, so the hint can be copied as is. */
export type AllowHint = (host: string) => string;

/**
 * The form checks of a remote agent URL, on core's SSRF guard (the one push webhooks use): http(s) only, no
 * credentials, no loopback names, no IP literal outside the public unicast ranges unless allow-listed, and none of the
 * Fetch standard's bad ports (allow-listed hosts included, as in a browser). Host names are checked again on every
 * resolved address when the connection is made (`createGuardedFetch`).
 */
export function checkTargetUrl(guard: PushUrlGuard, raw: string, allowHint: AllowHint): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedTargetError(`Refused: ${JSON.stringify(raw.slice(0, 200))} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RefusedTargetError(`Refused: only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new RefusedTargetError('Refused: the URL must not contain credentials');
  const host = stripBrackets(url.hostname).replace(/\.$/, '');
  if (!guard.isAllowedHost(host)) {
    if (host === 'localhost' || host.endsWith('.localhost'))
      throw new RefusedTargetError(refusal(host, 'loopback', allowHint));
    if (ipaddr.isValid(host)) {
      const range = guard.blockedRange(host);
      if (range) throw new RefusedTargetError(refusal(host, range, allowHint));
    }
  }
  const port = badPort(url);
  if (port !== undefined) {
    throw new RefusedTargetError(
      `Refused: port ${port} is one of the Fetch standard's bad ports (mail, SSH, DNS and the like), which browsers ` +
        'never connect to and neither does the playground',
    );
  }
  return url;
}

/**
 * The page's wording of a connect-time refusal (a host name that resolved to a private address). The address itself
 * is not shown: what a name resolves to inside the server's network is not the visitor's business.
 */
export function describeBlocked(error: BlockedAddressError, allowHint: AllowHint): string {
  return `Refused: ${error.host} resolves to a ${error.range} address; the playground only connects to public addresses. ${allowHint(error.host)}`;
}

/** The guard of the host app's policy; with `strict`, the same without its allow list (public addresses only). */
export function createTargetGuard(policy: PushUrlPolicy | undefined, strict = false): PushUrlGuard {
  const { allow, ...rest } = policy ?? {};
  return new PushUrlGuard({ ...rest, ...(allow && !strict ? { allow } : {}), allowHttp: policy?.allowHttp ?? true });
}

export { BlockedAddressError };

const refusal = (host: string, range: string, allowHint: AllowHint) =>
  `Refused: ${host} is a ${range} address; the playground only connects to public addresses. ${allowHint(host)}`;
