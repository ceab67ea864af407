import type ipaddr from 'ipaddr.js';
import { invalidParams } from '../errors.js';
import { type IpAddrModule, ipAddrNow, ipAddrReady } from './ipaddr-now.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

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
 *
 * The checks are synchronous. The address parser they use (ipaddr.js) loads with the first guard, not at start-up;
 * where the runtime cannot load it synchronously (a bundle with no `node_modules` beside it, Workers), `await
 * guard.ready()` before calling them (the push sender does).
 */
export class PushUrlGuard {
  private readonly allowHttp: boolean;
  private readonly maxUrlLength: number;
  readonly #allow: readonly string[];
  #parsed: { ip: IpAddrModule; hosts: Set<string>; networks: [Address, number][] } | undefined;

  constructor(policy: PushUrlPolicy = {}) {
    this.allowHttp = policy.allowHttp ?? true;
    this.maxUrlLength = policy.maxUrlLength ?? 2048;
    this.#allow = policy.allow ?? [];
    if (ipAddrNow()) this.lists(); // a malformed CIDR throws here where it can
  }

  /** Resolves once the checks can run: at once where the runtime loads ipaddr.js synchronously. */
  async ready(): Promise<void> {
    await ipAddrReady();
    this.lists();
  }

  /** The allow list, split into host names and networks (made once ipaddr.js is there). */
  private lists(): { ip: IpAddrModule; hosts: Set<string>; networks: [Address, number][] } {
    if (this.#parsed) return this.#parsed;
    const ip = ipAddrNow();
    if (!ip) throw new Error('The push URL guard is not ready in this runtime yet: await guard.ready() first');
    const hosts = new Set<string>();
    const networks: [Address, number][] = [];
    for (const entry of this.#allow) {
      if (entry.includes('/')) networks.push(ip.parseCIDR(entry));
      else if (ip.isValid(stripBrackets(entry))) networks.push(hostNetwork(ip.parse(stripBrackets(entry))));
      else hosts.add(entry.toLowerCase());
    }
    this.#parsed = { ip, hosts, networks };
    return this.#parsed;
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
    const { ip } = this.lists();
    if (this.isAllowedHost(host)) return url;
    if (host === 'localhost' || host.endsWith('.localhost')) {
      throw reject(`webhook host ${host} is a loopback name; ${allowHint(host)}`);
    }
    if (ip.isValid(host)) {
      const range = this.blockedRange(host);
      if (range) throw reject(`webhook address ${host} is ${range}, not a public address; ${allowHint(host)}`);
    }
    return url;
  }

  /** The reason an address is refused, or `undefined` when it may be dialled. */
  blockedRange(address: string): string | undefined {
    const { ip: parser, networks } = this.lists();
    let ip: Address;
    try {
      ip = parser.parse(stripBrackets(address));
    } catch {
      return 'not an IP address';
    }
    if (networks.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return undefined;
    // An IPv4-mapped IPv6 address is also checked against IPv4 allow-list entries.
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
      const v4 = (ip as ipaddr.IPv6).toIPv4Address();
      if (networks.some(([net, bits]) => net.kind() === 'ipv4' && v4.match(net, bits))) return undefined;
    }
    return publicRange(parser, ip);
  }

  /** Throws {@link BlockedAddressError} unless the resolved address may be dialled for `host`. */
  assertAddress(host: string, address: string): void {
    if (this.isAllowedHost(stripBrackets(host))) return;
    const range = this.blockedRange(address);
    if (range) throw new BlockedAddressError(host, address, range);
  }

  isAllowedHost(host: string): boolean {
    return this.lists().hosts.has(host.toLowerCase());
  }
}

/**
 * A `validatePushUrl` for the request handler: the URL checks, plus (with a resolver) every address the host name
 * resolves to right now. A name that does not resolve is accepted here; the connect-time check still applies.
 */
export function createPushUrlValidator(guard: PushUrlGuard, resolve?: HostResolver): (url: string) => Promise<void> {
  return async (raw) => {
    await guard.ready();
    const url = guard.checkUrl(raw);
    const host = stripBrackets(url.hostname);
    if (!resolve || (ipAddrNow() as IpAddrModule).isValid(host) || guard.isAllowedHost(host)) return;
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
function publicRange(ipaddr: IpAddrModule, ip: Address): string | undefined {
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv4') return undefined;
  v6Blocks ??= { ipv4Compatible: ipaddr.parseCIDR('::/96'), globalUnicast: ipaddr.parseCIDR('2000::/3') };
  if (ip.match(v6Blocks.ipv4Compatible)) return 'ipv4Compatible';
  return ip.match(v6Blocks.globalUnicast) ? undefined : 'reserved';
}

let v6Blocks: { ipv4Compatible: [Address, number]; globalUnicast: [Address, number] } | undefined;

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
const hostNetwork = (ip: Address): [Address, number] => [ip, ip.kind() === 'ipv4' ? 32 : 128];

/** Names the setting that exempts a host (for local development and tests). */
const allowHint = (host: string) =>
  `to allow it (local development), give the push sender ssrf: { allow: ['${host}'] } (createPushSender / createNodePushSender)`;
