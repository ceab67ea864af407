import ipaddr from 'ipaddr.js';
import { json } from './limits.js';

/**
 * The Host names the playground answers (`allowedHosts`): `true` for any, else host names (`agents.example.com`) or
 * domains with a leading dot (`.example.com`: it and its subdomains). Loopback names and IP literals always pass.
 */
export type AllowedHosts = true | readonly string[];

// A DNS-rebinding page reaches the server under the attacker's own name, never under an IP literal or a loopback
// name: refusing unknown names is what closes the rebinding window (as Vite's `server.allowedHosts` does).
const isDefaultHost = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname.startsWith('[') ||
  ipaddr.IPv4.isValidFourPartDecimal(hostname);

/** The host name of a `Host` value (`name:port`, `[::1]:port`), canonical as a URL parser writes it; `undefined` if invalid. */
export function hostnameOf(host: string): string | undefined {
  if (host === '' || /[/?#@\\\s]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

export function createHostCheck(allowed: AllowedHosts | undefined): (request: Request) => Response | undefined {
  if (allowed === true) return () => undefined;
  const names = new Set<string>();
  const domains: string[] = [];
  for (const entry of allowed ?? []) {
    const name = entry.trim().toLowerCase().replace(/\.$/, '');
    if (name.startsWith('.')) domains.push(name);
    else names.add(name);
  }
  const permitted = (hostname: string) =>
    isDefaultHost(hostname) ||
    names.has(hostname) ||
    domains.some((d) => hostname.endsWith(d) || hostname === d.slice(1));

  return (request) => {
    // Both the Host header and the URL the adapter built (which may come from a trusted X-Forwarded-Host) must pass.
    for (const host of [request.headers.get('host'), new URL(request.url).host]) {
      if (host === null) continue;
      const hostname = hostnameOf(host);
      if (hostname !== undefined && permitted(hostname)) continue;
      const shown = JSON.stringify((hostname ?? host).slice(0, 100));
      return json(403, {
        error:
          `Blocked request: the host ${shown} is not allowed. The playground answers loopback names and IP ` +
          `addresses only, unless the host is listed: createPlayground({ allowedHosts: [${shown}] }).`,
      });
    }
    return undefined;
  };
}
