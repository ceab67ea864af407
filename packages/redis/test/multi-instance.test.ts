import { fileURLToPath } from 'node:url';
import { describeMultiInstance } from '@a2a/store-testsuite/cluster';
import { describe } from 'vitest';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

describe.runIf(hasRedis)('@a2a/redis', () => {
  describeMultiInstance('Redis', {
    script: fileURLToPath(new URL('./fixtures/server.ts', import.meta.url)),
    backend: async () => {
      const redis = await testRedisUrl();
      return { env: { A2A_REDIS_URL: redis.url, A2A_REDIS_PREFIX: freshPrefix('multi') }, release: redis.release };
    },
  });
});
