import { newTask } from '@a2a/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

const working = { kind: 'status' as const, status: { state: 'TASK_STATE_WORKING' as const } };

/**
 * A finished task's keys expire one by one, so a new task of the same id can find its old stream and push keys without
 * its hash. The create checks the five keys with one EXISTS and deletes only when one is there (CREATE_WRITE in
 * scripts.ts; docs/performance.md, "Twentieth session"): the leftovers must go, and the task must still be refused
 * when its hash exists.
 */
describe.runIf(hasRedis)('a create over keys an earlier task of the id left behind', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>>;
  let store: RedisTaskStore;

  beforeAll(async () => {
    server = await testRedisUrl();
    store = await RedisTaskStore.connect({ url: server.url, keyPrefix: freshPrefix('leftover'), onError: () => {} });
  });
  afterAll(async () => {
    await store?.close();
    await server?.release();
  });

  it('starts the stream and the push configs afresh, and still refuses an existing task', async () => {
    const keys = store.keys.task('left');
    const config = { taskId: 'left', id: 'old', url: 'https://example.com/hook' };
    await store.client.xadd(keys.log, '7-0', 'c', 'ctx', 's', 'TASK_STATE_COMPLETED', 'e', '{}');
    await store.client.hset(keys.push, 'old', JSON.stringify(config));
    await store.client.zadd(keys.pushOrder, 1, 'old');
    await store.client.hset(keys.pushState, 'old', JSON.stringify({ lastDeliveredSeq: 7 }));

    const task = newTask('left', 'ctx', { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, '');
    const { record } = await store.createWith(task, 'owner', working);
    expect(record.seq).toBe(2);
    expect((await store.readEvents('left', 0)).map((r) => [r.seq, r.state])).toEqual([[2, 'TASK_STATE_WORKING']]);
    expect(await store.listPushConfigs('left')).toEqual([]);
    expect(await store.client.exists(keys.pushState)).toBe(0);

    await expect(store.createWith(task, 'owner', working)).rejects.toThrow(/already exists/);
    expect((await store.readEvents('left', 0)).map((r) => r.seq)).toEqual([2]);
  });
});
