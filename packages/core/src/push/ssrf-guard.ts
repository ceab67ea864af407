import ipaddr from 'ipaddr.js';
import { invalidParams } from '../errors.js';

/** Resolves a host name to its IP addresses (all of them). Injected: core itself has no DNS. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface PushUrlPolicy {
  /**
   * Hosts and networks exempt from the address check, for local development and tests: host names (exact,
   * case-insensitive, e.g. `localhost`), IP addresses (`127.0.0.1`, `::1`) or CIDR ranges (`10.0.0.0/8`).
   */
  allow?: readonly string[];
  /** Accept plain `http:` URLs (default true; set false to require https). */
  allowHttp?: boolean;
  /** Longest accepted URL. Default 2048. */
  maxUrlLength?: number;
}

/** Thrown at connect time when a webhook host resolves to an address the policy refuses. */
export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(
      `Webhook host ${host} resolves to ${address} (${range}), which push notifications may not reach; ${allowHint(host)}`,
    );
    this.name = 'BlockedAddressError';
  }
}

/**
 * The SSRF policy for webhook URLs. Only globally routable unicast addresses are allowed: loopback, private,
 * link-local (cloud metadata at 169.254.169.254), CGNAT, multicast, unspecified, reserved, IPv6 outside 2000::/3, and
 * every IPv6 form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are refused unless
 * allow-listed. The playground's proxy uses the same guard.
 */
export class PushUrlGuard {
  private readonly hosts = new Set<string>();
  private readonly networks: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  private readonly allowHttp: boolean;
  private readonly maxUrlLength: number;

  constructor(policy: PushUrlPolicy = {}) {
    this.allowHttp = policy.allowHttp ?? true;
    this.maxUrlLength = policy.maxUrlLength ?? 2048;
    for (const entry of policy.allow ?? []) {
      if (entry.includes('/')) this.networks.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(stripBrackets(entry)))
        this.networks.push(hostNetwork(ipaddr.parse(stripBrackets(entry))));
      else this.hosts.add(entry.toLowerCase());
    }
  }

  /** Checks the URL's form, and its host when it is an IP literal or a local name. Throws InvalidParams (-32602). */
  checkUrl(raw: string): URL {
    const reject = (why: string) => invalidParams(`Invalid params: url: ${why}`, [{ field: 'url', description: why }]);
    if (raw.length > this.maxUrlLength) throw reject(`webhook URL is longer than ${this.maxUrlLength} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw reject('not a valid URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.allowHttp)) {
      throw reject(`webhook URL scheme ${url.protocol} is not allowed (use ${this.allowHttp ? 'http or ' : ''}https)`);
    }
    if (url.username || url.password) throw reject('webhook URL must not contain credentials');
    const host = stripBrackets(url.hostname).replace(/\.$/, '');
    if (this.isAllowedHost(host)) return url;
    if (host === 'localhost' || host.endsWith('.localhost')) {
      throw reject(`webhook host ${host} is a loopback name; ${allowHint(host)}`);
    }
    if (ipaddr.isValid(host)) {
      const range = this.blockedRange(host);
      if (range) throw reject(`webhook address ${host} is ${range}, not a public address; ${allowHint(host)}`);
    }
    return url;
  }

  /** The reason an address is refused, or `undefined` when it may be dialled. */
  blockedRange(address: string): string | undefined {
    let ip: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      ip = ipaddr.parse(stripBrackets(address));
    } catch {
      return 'not an IP address';
    }
    if (this.networks.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return undefined;
    // An IPv4-mapped IPv6 address is also checked against IPv4 allow-list entries.
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
      const v4 = (ip as ipaddr.IPv6).toIPv4Address();
      if (this.networks.some(([net, bits]) => net.kind() === 'ipv4' && v4.match(net, bits))) return undefined;
    }
    return publicRange(ip);
  }

  /** Throws {@link BlockedAddressError} unless the resolved address may be dialled for `host`. */
  assertAddress(host: string, address: string): void {
    if (this.isAllowedHost(stripBrackets(host))) return;
    const range = this.blockedRange(address);
    if (range) throw new BlockedAddressError(host, address, range);
  }

  isAllowedHost(host: string): boolean {
    return this.hosts.has(host.toLowerCase());
  }
}

/**
 * A `validatePushUrl` for the request handler: the URL checks, plus (with a resolver) every address the host name
 * resolves to right now. A name that does not resolve is accepted here; the connect-time check still applies.
 */
export function createPushUrlValidator(guard: PushUrlGuard, resolve?: HostResolver): (url: string) => Promise<void> {
  return async (raw) => {
    const url = guard.checkUrl(raw);
    const host = stripBrackets(url.hostname);
    if (!resolve || ipaddr.isValid(host) || guard.isAllowedHost(host)) return;
    let addresses: string[];
    try {
      addresses = await resolve(host);
    } catch {
      return;
    }
    for (const address of addresses) {
      const range = guard.blockedRange(address);
      if (range) {
        const why = `webhook host ${host} resolves to ${address} (${range}), not a public address; ${allowHint(host)}`;
        throw invalidParams(`Invalid params: url: ${why}`, [{ field: 'url', description: why }]);
      }
    }
  };
}

/**
 * `undefined` for a globally routable unicast address, else the name of its range. IPv6 must also lie in the global
 * unicast block 2000::/3: ipaddr.js calls everything it has no name for `unicast`, IPv4-compatible addresses
 * (`::a9fe:a9fe` = 169.254.169.254, which many stacks still dial as IPv4) included.
 */
function publicRange(ip: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv4') return undefined;
  if (ip.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return ip.match(GLOBAL_UNICAST) ? undefined : 'reserved';
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
const hostNetwork = (ip: ipaddr.IPv4 | ipaddr.IPv6): [ipaddr.IPv4 | ipaddr.IPv6, number] => [
  ip,
  ip.kind() === 'ipv4' ? 32 : 128,
];

/** Names the setting that exempts a host (for local development and tests). */
const allowHint = (host: string) =>
  `to allow it (local development), give the push sender ssrf: { allow: ['${host}'] } (createPushSender / createNodePushSender)`;
