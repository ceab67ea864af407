import { newTask, type TaskState } from '@a2a/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { monitorCommands } from './monitor.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

const status = (state: TaskState) => ({
  kind: 'status' as const,
  status: { state, timestamp: new Date().toISOString() },
});

// A status write sends one script: the task, its owner's ListTasks entry and its running-task mark together
// (docs/performance.md, "Durable throughput on Redis"). Counted with MONITOR, which sees every command the server runs.
describe.runIf(hasRedis)('RedisTaskStore status writes', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>>;
  let store: RedisTaskStore;
  let monitor: Awaited<ReturnType<typeof monitorCommands>>;
  const prefix = freshPrefix('one-script');

  beforeAll(async () => {
    server = await testRedisUrl();
    store = await RedisTaskStore.connect({ url: server.url, keyPrefix: prefix, onError: () => {} });
    store.trackRunning = true; // as a RedisExecutionCoordinator sets it
    monitor = await monitorCommands(server.url, prefix, store.client);
  });
  afterAll(async () => {
    monitor?.close();
    await store?.close();
    await server?.release();
  });

  const commandsOf = async (write: () => Promise<unknown>) => (await monitor.during(write)).map(([name]) => name);

  it('createWith and a status append each send one script that also updates the ListTasks index and running mark', async () => {
    const task = newTask(
      'w1',
      'ctx',
      { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      new Date().toISOString(),
    );
    const created = await commandsOf(() => store.createWith(task, 'alice', status('TASK_STATE_WORKING')));
    expect(created).toEqual(['script']);
    const running = store.keys.coord().running;
    expect(await store.client.zscore(running, 'w1')).not.toBeNull();
    expect((await store.list('alice', { pageSize: 5, status: 'TASK_STATE_WORKING' })).tasks.map((t) => t.id)).toEqual([
      'w1',
    ]);

    const completed = await commandsOf(() => store.append('w1', 2, status('TASK_STATE_COMPLETED')));
    expect(completed).toEqual(['script']);
    expect(await store.client.zscore(running, 'w1')).toBeNull();
    expect((await store.list('alice', { pageSize: 5, status: 'TASK_STATE_COMPLETED' })).tasks.map((t) => t.id)).toEqual(
      ['w1'],
    );
    expect(await store.client.zscore(store.keys.owner('alice').expiry, 'w1')).not.toBeNull();
  });

  it('a write that loses its version check leaves the index and the running mark as they were', async () => {
    const task = newTask(
      'w2',
      'ctx',
      { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      new Date().toISOString(),
    );
    await store.createWith(task, 'bob', status('TASK_STATE_WORKING'));
    const other = await RedisTaskStore.connect({ url: server.url, keyPrefix: prefix, onError: () => {} });
    try {
      await other.append('w2', 2, status('TASK_STATE_INPUT_REQUIRED'));
    } finally {
      await other.close();
    }
    // This store's cache still says version 2: its COMPLETED loses, and must not index COMPLETED nor unmark it.
    await expect(store.append('w2', 2, status('TASK_STATE_COMPLETED'))).rejects.toMatchObject({
      name: 'ConcurrentModificationError',
    });
    const states = await store.list('bob', { pageSize: 5, status: 'TASK_STATE_INPUT_REQUIRED' });
    expect(states.tasks.map((t) => t.id)).toEqual(['w2']);
    expect((await store.list('bob', { pageSize: 5, status: 'TASK_STATE_COMPLETED' })).tasks).toEqual([]);
    expect(await store.client.zscore(store.keys.owner('bob').expiry, 'w2')).toBeNull();
  });
});
