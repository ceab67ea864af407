import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, RedisTaskStore } from '../src/index.js';
import { clusterUrl } from './cluster.js';
import { freshPrefix, hasServerBinary, type RedisServer, sharedUrl, startRedisServer } from './redis.js';

/**
 * The mode a store opens in, and what it refuses at start-up rather than answering every request with a 503 later:
 * the standalone mode on a Cluster node (its status writes and stream tail span slots), the Cluster mode on a
 * standalone server, and a Cluster node whose cluster cannot serve.
 */
describe.runIf(hasServerBinary)('a Redis Cluster node', () => {
  let node: RedisServer;
  beforeAll(async () => {
    node = await startRedisServer({ cluster: true }); // alone: no slots assigned, cluster_state:fail
  }, 30_000);
  afterAll(async () => {
    await node?.destroy();
  });

  it('whose cluster cannot serve is refused at start-up with an error that names it and its cluster_state', async () => {
    const expected = new RegExp(
      `@a2a/redis: cannot connect to Redis at 127\\.0\\.0\\.1:${node.port}: .*cluster_state is fail`,
    );
    await expect(RedisTaskStore.connect({ url: node.url, onError: () => {} })).rejects.toThrow(expected);
    await expect(createRedisTaskStore({ url: node.url, onError: () => {} })).rejects.toThrow(expected);
  });

  it.runIf(clusterUrl)('opens the Cluster mode, unless `cluster: false` asks for the standalone one', async () => {
    const url = clusterUrl as string;
    const setup = await createRedisTaskStore({ url, keyPrefix: freshPrefix('cmodes'), onError: () => {} });
    try {
      expect(setup.redis.cluster).toBe(true);
    } finally {
      await setup.close();
    }
    const port = new URL(url).port;
    const expected = new RegExp(`@a2a/redis: 127\\.0\\.0\\.1:${port} is a Redis Cluster node; .*cluster: true`);
    await expect(RedisTaskStore.connect({ url, cluster: false, onError: () => {} })).rejects.toThrow(expected);
    await expect(createRedisTaskStore({ url, cluster: false, onError: () => {} })).rejects.toThrow(expected);
  });

  it.runIf(sharedUrl)(
    'a standalone server is refused in Cluster mode, and opens in standalone mode by default',
    async () => {
      const url = sharedUrl as string;
      await expect(RedisTaskStore.connect({ url, cluster: true, onError: () => {} })).rejects.toThrow(
        // ioredis's Cluster client finds no slots on it: "Failed to refresh slots cache".
        new RegExp(`cannot connect to Redis at 127\\.0\\.0\\.1:${new URL(url).port}: `),
      );
      const store = await RedisTaskStore.connect({ url, keyPrefix: freshPrefix('cmodes'), onError: () => {} });
      try {
        expect(store.cluster).toBe(false);
      } finally {
        await store.close();
      }
    },
  );
});
