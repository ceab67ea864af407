import { eventually } from '@a2a/adapter-testsuite';
import { newTask, type TaskState } from '@a2a/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

const message = (taskId: string) => ({
  messageId: `m-${taskId}`,
  role: 'ROLE_USER' as const,
  parts: [{ text: 'hi' }],
  taskId,
  contextId: 'ctx',
});
const status = (state: TaskState) => ({
  kind: 'status' as const,
  status: { state, timestamp: new Date().toISOString() },
});

/**
 * A finished task's keys expire, but its ListTasks entry stays until a ListTasks call purges it. A new task created
 * with the same id in between must be listed (its entry replaces the old one whatever the old one's version).
 */
describe.runIf(hasRedis)('a task id used again after the finished task expired', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>>;
  let store: RedisTaskStore;

  beforeAll(async () => {
    server = await testRedisUrl();
    store = await RedisTaskStore.connect({
      url: server.url,
      keyPrefix: freshPrefix('reuse'),
      finishedTaskTtlMs: 200,
      onError: () => {},
    });
  });
  afterAll(async () => {
    await store?.close();
    await server?.release();
  });

  it('is listed with its new state, not hidden by the old entry of a higher version', async () => {
    await store.create(newTask('again', 'ctx', message('again'), new Date().toISOString()), 'owner');
    await store.append('again', 1, status('TASK_STATE_WORKING'));
    await store.append('again', 2, status('TASK_STATE_COMPLETED')); // version 3, expires in 200 ms
    await eventually(async () => ((await store.client.exists(store.keys.task('again').task)) === 0 ? true : undefined));

    await store.create(newTask('again', 'ctx', message('again'), new Date().toISOString()), 'owner'); // version 1
    const listed = await store.list('owner', { pageSize: 10 });
    expect(listed.tasks.map((t) => [t.id, t.status.state])).toEqual([['again', 'TASK_STATE_SUBMITTED']]);
    expect(listed.totalSize).toBe(1);
  });
});
