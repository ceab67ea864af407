import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { type IpAddrModule, ipAddrNow } from '../push/ipaddr-now.js';
import { PushSender, type PushSenderOptions } from '../push/push-sender.js';
import { type HostResolver, PushUrlGuard } from '../push/ssrf-guard.js';

/** Every address a host name resolves to (node:dns, the OS resolver). */
export const nodeHostResolver: HostResolver = async (hostname) =>
  (await dnsLookupAsync(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Every address of a host (the connect-time DNS answer). Injectable to test DNS rebinding. */
export type AddressResolver = (hostname: string, family?: number) => Promise<LookupAddress[]>;

const defaultResolveAll: AddressResolver = (hostname, family) =>
  dnsLookupAsync(hostname, { all: true, verbatim: true, ...(family ? { family } : {}) });

/**
 * A minimal `fetch` for webhook POSTs over node:http(s) that closes the DNS-rebinding window: the socket's `lookup`
 * resolves the host, checks every answer against the guard and connects only to those checked addresses; IP-literal
 * hosts (for which no lookup happens) are checked up front. Redirects are never followed; Happy Eyeballs is off so
 * no unchecked address is dialled. Rejects with a `BlockedAddressError` for a refused address.
 */
export function createGuardedFetch(
  guard: PushUrlGuard,
  resolveAll: AddressResolver = defaultResolveAll,
): (url: string, init: RequestInit) => Promise<Response> {
  const lookup: LookupFunction = (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolveAll(hostname, family).then(
      (addresses) => {
        try {
          for (const { address } of addresses) guard.assertAddress(hostname, address);
        } catch (blocked) {
          return callback(blocked as NodeJS.ErrnoException, '', 0);
        }
        const first = addresses[0] as LookupAddress | undefined;
        if (!first)
          return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  return async (input, init) => {
    await guard.ready();
    return new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if ((ipAddrNow() as IpAddrModule).isValid(host)) {
        try {
          guard.assertAddress(host, host);
        } catch (blocked) {
          return reject(blocked);
        }
      }
      const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
      if (!client) return reject(new TypeError(`Unsupported protocol ${url.protocol}`));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => {
        headers[key] = value;
      });
      const body = init.body as Uint8Array | string | undefined | null;
      if (body != null)
        headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      const options: http.RequestOptions & { autoSelectFamily: boolean } = {
        method: init.method ?? 'GET',
        headers,
        lookup,
        autoSelectFamily: false,
        ...(init.signal ? { signal: init.signal } : {}),
      };
      const request = client.request(url, options);
      request.once('error', reject);
      request.once('response', (res) => {
        const status = res.statusCode ?? 502;
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
        }
        const noBody = status === 204 || status === 205 || status === 304 || status < 200;
        if (noBody) res.resume();
        resolve(
          new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status: status < 200 ? 502 : status,
            ...(res.statusMessage ? { statusText: res.statusMessage } : {}),
            headers: responseHeaders,
          }),
        );
      });
      request.end(body ?? undefined);
    });
  };
}

/**
 * A {@link PushSender} with the Node defaults: host names checked at create time through DNS and again at connect
 * time on the dialled address (see {@link createGuardedFetch}). `ssrf: { allow: [...] }` lists exempt hosts/networks.
 */
export function createNodePushSender(options: PushSenderOptions & { resolveAll?: AddressResolver } = {}): PushSender {
  const { resolveAll, ...rest } = options;
  const guarded = options.ssrf === false ? undefined : createGuardedFetch(new PushUrlGuard(options.ssrf), resolveAll);
  return new PushSender({
    resolve: nodeHostResolver,
    ...rest,
    ...(options.fetch ? {} : guarded ? { fetch: guarded } : {}),
  });
}
