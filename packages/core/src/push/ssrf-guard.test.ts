import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { PushUrlGuard } from './ssrf-guard.js';

/** Every IPv6 notation that carries an IPv4 address, and that some stack or gateway dials as that IPv4 address. */
function embeddings(v4: string): string[] {
  const [a, b, c, d] = ipaddr.IPv4.parse(v4).octets as [number, number, number, number];
  const hi = ((a << 8) | b).toString(16);
  const lo = ((c << 8) | d).toString(16);
  const inv = (n: number) => (n ^ 0xffff).toString(16);
  return [
    `::ffff:${v4}`, // IPv4-mapped
    `::ffff:${hi}:${lo}`,
    `::${v4}`, // IPv4-compatible (deprecated, still dialled)
    `::${hi}:${lo}`,
    `::ffff:0:${hi}:${lo}`, // SIIT (RFC 6145)
    `64:ff9b::${hi}:${lo}`, // NAT64 well-known prefix
    `64:ff9b:1::${hi}:${lo}`, // NAT64 local-use prefix
    `2002:${hi}:${lo}::1`, // 6to4
    `2001:0:4136:e378:8000:63bf:${inv((a << 8) | b)}:${inv((c << 8) | d)}`, // Teredo (client address obfuscated)
  ];
}

const privateV4 = fc.oneof(
  fc.constant('169.254.169.254'),
  fc.constant('127.0.0.1'),
  fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map(([x, y]) => `10.${x}.${y}.1`),
  fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map(([x, y]) => `192.168.${x}.${y}`),
  fc.integer({ min: 0, max: 255 }).map((x) => `169.254.${x}.1`),
  fc.integer({ min: 1, max: 255 }).map((x) => `127.0.0.${x}`),
);

describe('PushUrlGuard', () => {
  const guard = new PushUrlGuard();

  it('refuses every IPv6 form of a private IPv4 address, as a literal and as a resolved address', () => {
    fc.assert(
      fc.property(privateV4, (v4) => {
        for (const v6 of embeddings(v4)) {
          expect(guard.blockedRange(v6), v6).toBeDefined();
          expect(() => guard.checkUrl(`http://[${v6}]/hook`), v6).toThrow(/not a public address/);
        }
      }),
      { seed: 0x2a2a, numRuns: 50 },
    );
  });

  it('names the IPv4-compatible range', () => {
    for (const v6 of ['::a9fe:a9fe', '::7f00:1', '::a00:1', '::808:808']) {
      expect(guard.blockedRange(v6), v6).toBe('ipv4Compatible');
    }
  });

  it('refuses IPv6 outside global unicast (2000::/3) that ipaddr.js calls unicast', () => {
    for (const v6 of ['100:1::1', '4000::1', 'e000::1', '1::1']) expect(guard.blockedRange(v6), v6).toBeDefined();
  });

  it('accepts public addresses', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e']) {
      expect(guard.blockedRange(ip), ip).toBeUndefined();
    }
  });

  it('allow-listed networks still pass', () => {
    const local = new PushUrlGuard({ allow: ['127.0.0.1', '::/96'] });
    expect(local.blockedRange('::ffff:127.0.0.1')).toBeUndefined();
    expect(local.blockedRange('::7f00:1')).toBeUndefined();
    expect(local.blockedRange('::ffff:10.0.0.1')).toBe('ipv4Mapped');
  });
});
