import { BlockedAddressError, PushUrlGuard, type PushUrlPolicy } from '@a2a/core';
import ipaddr from 'ipaddr.js';

/** A URL the playground refuses to fetch, with a message the page shows as is. */
export class RefusedTargetError extends Error {
  /** 403 for a URL the guard refuses, 502 for an agent that could not be reached or answered amiss, 504 for one too slow. */
  constructor(
    message: string,
    readonly status: 403 | 502 | 504 = 403,
  ) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/**
 * The form checks of a remote agent URL, on core's SSRF guard (the one push webhooks use): http(s) only, no
 * credentials, no loopback names, no IP literal outside the public unicast ranges unless allow-listed. Host names are
 * checked again on every resolved address when the connection is made (`createGuardedFetch`).
 */
export function checkTargetUrl(guard: PushUrlGuard, raw: string, allowHint: string): URL {
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
  if (guard.isAllowedHost(host)) return url;
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw new RefusedTargetError(refusal(host, 'loopback', allowHint));
  if (ipaddr.isValid(host)) {
    const range = guard.blockedRange(host);
    if (range) throw new RefusedTargetError(refusal(host, range, allowHint));
  }
  return url;
}

/**
 * The page's wording of a connect-time refusal (a host name that resolved to a private address). The address itself
 * is not shown: what a name resolves to inside the server's network is not the visitor's business.
 */
export function describeBlocked(error: BlockedAddressError, allowHint: string): string {
  return `Refused: ${error.host} resolves to a ${error.range} address; the playground only connects to public addresses. ${allowHint}`;
}

/** The guard of the host app's policy; with `strict`, the same without its allow list (public addresses only). */
export function createTargetGuard(policy: PushUrlPolicy | undefined, strict = false): PushUrlGuard {
  const { allow, ...rest } = policy ?? {};
  return new PushUrlGuard({ ...rest, ...(allow && !strict ? { allow } : {}), allowHttp: policy?.allowHttp ?? true });
}

export { BlockedAddressError };

const refusal = (host: string, range: string, allowHint: string) =>
  `Refused: ${host} is a ${range} address; the playground only connects to public addresses. ${allowHint}`;
