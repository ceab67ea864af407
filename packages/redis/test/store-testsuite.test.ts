import { describePushConfigStore, describeTaskStore } from '@a2a/store-testsuite';
import { afterAll, beforeAll, describe } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

// The published store contract, unchanged, on the test server under a key prefix of this file's own. Every store the
// suite asks for is a separate instance (its own connections, stream tail and cache) on that prefix, so the peer is a
// true second instance.
describe.runIf(hasRedis)('@a2a/redis', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>> | undefined;
  const keyPrefix = freshPrefix('suite');
  const open = (finishedTaskTtlMs: number) => {
    if (!server) throw new Error('no test Redis');
    return RedisTaskStore.connect({ url: server.url, keyPrefix, finishedTaskTtlMs, onError: () => {} });
  };

  beforeAll(async () => {
    server = await testRedisUrl();
  });
  afterAll(async () => {
    await server?.release();
  });

  describeTaskStore('RedisTaskStore', {
    create: ({ finishedTaskTtlMs }) => open(finishedTaskTtlMs),
    createPeer: (_store, { finishedTaskTtlMs }) => open(finishedTaskTtlMs),
    close: (store) => store.close(),
  });

  describePushConfigStore('RedisTaskStore', {
    create: () => open(60 * 60 * 1000),
    createPeer: () => open(60 * 60 * 1000),
    close: (store) => store.close(),
  });
});
