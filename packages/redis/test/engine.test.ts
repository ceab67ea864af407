import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { clusterUrl } from './cluster.js';
import { hasServerBinary, serverBinary, sharedUrl } from './redis.js';

/**
 * Which server the suite runs on. `.ci/run` runs this package twice, on Debian's Redis (A2A_TEST_REDIS_ENGINE=redis)
 * and as the `valkey` vitest project on Valkey (=valkey): this file makes sure each pass really is on the engine it
 * claims, the shared server, the Redis Cluster and the binary the fault tests start alike, at a version the README
 * supports. Without
 * the variable either engine will do.
 */
const FLOOR = { redis: 7, valkey: 8 } as const;
type Engine = keyof typeof FLOOR;
const claimed = process.env.A2A_TEST_REDIS_ENGINE as Engine | undefined;

function expectSupported(engine: Engine | undefined, major: number, evidence: string) {
  expect(engine, evidence).toBeDefined();
  if (claimed) expect(engine, evidence).toBe(claimed);
  expect(major, evidence).toBeGreaterThanOrEqual(FLOOR[engine as Engine]);
}

describe(`the server the tests run on (${claimed ?? 'Redis or Valkey'})`, () => {
  it.each([
    { name: 'the shared server', url: sharedUrl },
    { name: 'the Redis Cluster (its seed node)', url: clusterUrl },
  ])('$name is a supported version', async ({ url }) => {
    if (url === undefined) return;
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      const info = await client.info('server');
      // Valkey also reports the Redis version it is compatible with (redis_version:7.2.4).
      const valkey = /^valkey_version:(\d+)/m.exec(info)?.[1];
      const redis = /^redis_version:(\d+)/m.exec(info)?.[1];
      expectSupported(valkey ? 'valkey' : redis ? 'redis' : undefined, Number(valkey ?? redis), info);
    } finally {
      client.disconnect();
    }
  });

  it.runIf(hasServerBinary)('the fault tests start a supported version', () => {
    const banner = execFileSync(serverBinary as string, ['--version'], { encoding: 'utf8' });
    const match = /^(Redis|Valkey) server v=(\d+)/.exec(banner);
    expectSupported(match?.[1]?.toLowerCase() as Engine | undefined, Number(match?.[2]), banner);
  });
});
