import { isA2AError, newTask } from '@a2a/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { freshPrefix, hasServerBinary, type RedisServer, startRedisServer } from './redis.js';

/**
 * A server lost while a durable write's WAIT is pending (the master killed in a failover, as CI met under load): the
 * script has answered, the WAIT has not, and ioredis aborts it ("Command aborted due to connection close"). The write
 * may be there or not, as for any lost connection: the store answers `Unavailable` (the engine's retry finds out
 * which), never an error that becomes a 500 or fails the task. A server of this test's own with no replica, so the
 * WAIT is still pending when it is killed.
 */
describe.runIf(hasServerBinary)('a server lost during a write’s replica wait', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  }, 30_000);
  afterAll(async () => {
    await server?.destroy();
  });

  it('fails the write as Unavailable', async () => {
    const store = await RedisTaskStore.connect({
      url: server.url,
      keyPrefix: freshPrefix('waitabort'),
      wait: { replicas: 1, timeoutMs: 20_000 },
      onError: () => {},
    });
    try {
      const ts = new Date().toISOString();
      const first = {
        messageId: 'm',
        role: 'ROLE_USER' as const,
        parts: [{ text: 'go' }],
        taskId: 't',
        contextId: 'c',
      };
      const writing = store.create(newTask('t', 'c', first, ts), 'o').catch((error: unknown) => error);
      await new Promise((r) => setTimeout(r, 300)); // the script has answered; its WAIT waits for a replica
      await server.stop('SIGKILL');
      const failure = await writing;
      expect(isA2AError(failure) && failure.type, String(failure)).toBe('Unavailable');
    } finally {
      await store.close();
    }
  }, 30_000);
});
