import { describePushConfigStore, describeTaskStore } from '@a2a/store-testsuite';
import { describe } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { clusterUrl } from './cluster.js';
import { freshPrefix } from './redis.js';

// The published store contract, unchanged, on a Redis Cluster (the Cluster mode, chosen at start-up): every store
// the suite asks for is a separate instance on this file's own key prefix, so the peer is a true second instance.
describe.runIf(clusterUrl)('@a2a/redis on a Redis Cluster', () => {
  const keyPrefix = freshPrefix('csuite');
  const open = async (finishedTaskTtlMs: number) => {
    const store = await RedisTaskStore.connect({
      url: clusterUrl as string,
      keyPrefix,
      finishedTaskTtlMs,
      onError: () => {},
    });
    if (!store.cluster) throw new Error('not in Cluster mode');
    return store;
  };

  describeTaskStore('RedisTaskStore (Cluster mode)', {
    create: ({ finishedTaskTtlMs }) => open(finishedTaskTtlMs),
    createPeer: (_store, { finishedTaskTtlMs }) => open(finishedTaskTtlMs),
    close: (store) => store.close(),
  });

  describePushConfigStore('RedisTaskStore (Cluster mode)', {
    create: () => open(60 * 60 * 1000),
    createPeer: () => open(60 * 60 * 1000),
    close: (store) => store.close(),
  });
});
