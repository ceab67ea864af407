import { fileURLToPath } from 'node:url';
import { describeMultiInstance, describeShutdown } from '@a2a/store-testsuite/cluster';
import { describe } from 'vitest';
import { clusterUrl } from './cluster.js';
import { freshPrefix } from './redis.js';

// Three instances (child processes, createTaskStoreFromEnv) on one Redis Cluster: cancel across instances, a stream
// resumed on another instance after its instance is killed, a dead instance's task failed by the lease janitor;
// and the graceful-shutdown cases.
describe.runIf(clusterUrl)('@a2a/redis on a Redis Cluster', () => {
  const script = fileURLToPath(new URL('./fixtures/server.ts', import.meta.url));
  const backend = (name: string) => async () => ({
    env: { A2A_REDIS_URL: clusterUrl as string, A2A_REDIS_PREFIX: freshPrefix(name) },
    release: async () => {},
  });
  describeMultiInstance('Redis Cluster', { script, backend: backend('cmulti') });
  describeShutdown({ script, backend: backend('cshutdown') });
});
