import { isA2AError } from '@a2a/core';
import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { storeError } from '../src/index.js';
import { clusterUrl, keySlots } from './cluster.js';
import { freshPrefix } from './redis.js';

/**
 * What a failover makes ioredis hand back unfollowed (test/cluster-failover.test.ts meets both under load): a raw
 * MOVED, and its refusal of a pipeline whose keys the slot map puts on several nodes. Neither command ran, so the
 * store answers both as `Unavailable` (a retry goes to the new master), never as a 500. Produced here for real on the
 * shared cluster: a MOVED from a node asked for a slot it does not serve, the refusal from a pipeline across nodes.
 */
describe.runIf(clusterUrl)('redirections ioredis does not follow', () => {
  const url = clusterUrl as string;

  it('a MOVED reply is answered as Unavailable', async () => {
    const prefix = freshPrefix('moved');
    // A key whose slot the seed node does not serve (the seed serves one third of them).
    const keys = Array.from({ length: 30 }, (_, i) => `${prefix}:${i}`);
    const slots = await keySlots(url, keys);
    const seed = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await seed.connect();
      const served = (await seed.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
      const port = Number(new URL(url).port);
      const own = served.filter(([, , [, p]]) => p === port);
      const elsewhere = keys.find(
        (_, i) => !own.some(([from, to]) => (slots[i] as number) >= from && (slots[i] as number) <= to),
      );
      const moved = await seed.get(elsewhere as string).catch((error: unknown) => error);
      expect(moved).toBeInstanceOf(Error);
      expect((moved as Error).message).toMatch(/^MOVED /);
      const answered = storeError(moved);
      expect(isA2AError(answered) && answered.type).toBe('Unavailable');
    } finally {
      seed.disconnect();
    }
  });

  it("ioredis's refusal of a pipeline across nodes' slots is answered as Unavailable", async () => {
    const prefix = freshPrefix('group');
    const client = new Cluster([url], { lazyConnect: true });
    try {
      await client.connect();
      const keys = Array.from({ length: 30 }, (_, i) => `${prefix}:${i}`);
      const slots = await keySlots(url, keys);
      const nodeOf = (slot: number) => {
        const owner = (client as unknown as { slots: string[][] }).slots[slot];
        return owner?.[0];
      };
      const other = keys.find((_, i) => nodeOf(slots[i] as number) !== nodeOf(slots[0] as number));
      const refused = await client
        .pipeline()
        .get(keys[0] as string)
        .get(other as string)
        .exec()
        .catch((error: unknown) => error);
      expect((refused as Error).message).toMatch(/same slots allocation group/);
      const answered = storeError(refused);
      expect(isA2AError(answered) && answered.type).toBe('Unavailable');
    } finally {
      client.disconnect();
    }
  });
});
