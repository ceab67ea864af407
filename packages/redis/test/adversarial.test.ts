import { defineAdversarialSuite, nodeHarness } from '@a2a/adapter-testsuite';
import { afterAll, beforeAll, describe } from 'vitest';
import { createRedisTaskStore } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

// The generated adversarial suite (hostile input of every kind) through a real server whose task store, push config
// store and coordinator are Redis: never a 5xx, always an A2A error, and a refused request writes nothing through the
// store (its writes counted, ListTasks compared) — each configuration on a key prefix of its own.
describe.runIf(hasRedis)('@a2a/redis', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>> | undefined;
  beforeAll(async () => {
    server = await testRedisUrl();
  });
  afterAll(async () => {
    await server?.release();
  });

  defineAdversarialSuite(nodeHarness('node:http + RedisTaskStore'), {
    stores: async () => {
      if (!server) throw new Error('no test Redis');
      const setup = await createRedisTaskStore({ url: server.url, keyPrefix: freshPrefix('adv'), onError: () => {} });
      return { taskStore: setup.taskStore, coordinator: setup.coordinator, close: setup.close };
    },
  });
});
