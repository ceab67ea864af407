import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, RedisTaskStore } from '../src/index.js';
import { hasServerBinary, type RedisServer, startRedisServer } from './redis.js';

/**
 * A Redis Cluster node refuses a status write's script and the stream tail's XREAD (several hash slots): the store
 * must say so when it starts, not answer every request with a 503 later.
 */
describe.runIf(hasServerBinary)('a Redis Cluster node', () => {
  let node: RedisServer;
  beforeAll(async () => {
    node = await startRedisServer({ cluster: true });
  }, 30_000);
  afterAll(async () => {
    await node?.destroy();
  });

  it('is refused at start-up with an error that names it and says what to use', async () => {
    const expected = new RegExp(`@a2a/redis: 127\\.0\\.0\\.1:${node.port} is a Redis Cluster node; .*standalone`);
    await expect(RedisTaskStore.connect({ url: node.url, onError: () => {} })).rejects.toThrow(expected);
    await expect(createRedisTaskStore({ url: node.url, onError: () => {} })).rejects.toThrow(expected);
  });
});
