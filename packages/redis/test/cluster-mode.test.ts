import { eventually } from '@a2a/adapter-testsuite';
import { newTask, type TaskState } from '@a2a/core';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, RedisTaskStore, type RedisTaskStoreSetup } from '../src/index.js';
import { clusterUrl, keySlots } from './cluster.js';
import { freshPrefix } from './redis.js';

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

/** The Cluster mode on a real 3-master cluster (scripts/start-redis-cluster.sh): what its own design promises. */
describe.runIf(clusterUrl)('the Cluster mode', () => {
  const url = clusterUrl as string;
  let setup: RedisTaskStoreSetup;
  let store: RedisTaskStore;

  beforeAll(async () => {
    setup = await createRedisTaskStore({ url, keyPrefix: freshPrefix('cmode'), leaseTtlMs: 3000, onError: () => {} });
    store = setup.redis;
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('is chosen at start-up from INFO cluster, by createRedisTaskStore and RedisTaskStore.connect alike', async () => {
    expect(store.cluster).toBe(true);
    const other = await RedisTaskStore.connect({ url, keyPrefix: freshPrefix('cmode'), onError: () => {} });
    try {
      expect(other.cluster).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('is the mode of a store given an ioredis Cluster as its client (left open by close())', async () => {
    const seed = new URL(url);
    const client = new Cluster([{ host: seed.hostname, port: Number(seed.port) }], { lazyConnect: true });
    try {
      const own = await RedisTaskStore.connect({ client, keyPrefix: freshPrefix('cclient'), onError: () => {} });
      expect(own.cluster).toBe(true);
      await own.create(newTask('mine', 'ctx', message('mine'), new Date().toISOString()), 'o');
      expect((await own.list('o', { pageSize: 10 })).tasks.map((t) => t.id)).toEqual(['mine']);
      await own.close();
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });

  it('keeps every key of one task in one hash slot, and the slots of different tasks spread over the nodes', async () => {
    const slotsOf = async (id: string) => {
      const k = store.keys.task(id);
      return keySlots(url, [k.task, k.log, k.push, k.pushOrder, k.pushState, k.wake]);
    };
    const ids = ['a', 'b}{', 'c%7D', 'task-with-a-long-id-0123456789'];
    const all = await Promise.all(ids.map(slotsOf));
    for (const slots of all) expect(new Set(slots).size).toBe(1);
    const owner = store.keys.owner('alice');
    expect(new Set(await keySlots(url, [owner.list, owner.meta, owner.expiry, owner.seq])).size).toBe(1);
    const coord = store.keys.coord();
    expect(new Set(await keySlots(url, [coord.leases, coord.holders, coord.running])).size).toBe(1);
    expect(new Set(all.map((slots) => slots[0])).size).toBeGreaterThan(1);
  });

  it('writes a task, its ListTasks entry and its running mark, each in its own slot', async () => {
    await store.create(newTask('one', 'ctx', message('one'), new Date().toISOString()), 'alice');
    await store.append('one', 1, status('TASK_STATE_WORKING'));
    const listed = await store.list('alice', { pageSize: 10, status: 'TASK_STATE_WORKING' });
    expect(listed.tasks.map((t) => t.id)).toEqual(['one']);
    expect(await store.client.zscore(store.keys.coord().running, 'one')).not.toBeNull();
    await store.append('one', 2, status('TASK_STATE_COMPLETED'));
    expect(await store.client.zscore(store.keys.coord().running, 'one')).toBeNull();
    expect((await store.list('alice', { pageSize: 10, status: 'TASK_STATE_COMPLETED' })).totalSize).toBe(1);
  });

  it('repairs, on a ListTasks page, an entry a crash left a status behind (the task is the source of truth)', async () => {
    await store.create(newTask('crashed', 'ctx', message('crashed'), new Date().toISOString()), 'bob');
    await store.append('crashed', 1, status('TASK_STATE_WORKING'));
    // An instance killed after the task's own script and before its index step: the task is COMPLETED, the entry
    // still says WORKING (version 2).
    const keys = store.keys.task('crashed');
    const stored = await store.get('crashed');
    const done = { ...stored?.task, status: status('TASK_STATE_COMPLETED').status };
    const written = (await store.script(
      'a2aAppendPublish',
      [keys.task, keys.log, keys.push, keys.pushOrder, keys.pushState, keys.wake],
      [
        2,
        'TASK_STATE_COMPLETED',
        done.status.timestamp,
        JSON.stringify(done),
        JSON.stringify(status('TASK_STATE_COMPLETED')),
        0,
      ],
    )) as number[];
    expect(written).toEqual([1, 3]);
    // Filtered by the entry's stale state: the page's task is read fresh, does not match, and is left out.
    const stale = await store.list('bob', { pageSize: 10, status: 'TASK_STATE_WORKING' });
    expect(stale.tasks).toEqual([]);
    // The entry was rewritten from the task: filters by the new state find it.
    const fixed = await store.list('bob', { pageSize: 10, status: 'TASK_STATE_COMPLETED' });
    expect(fixed.tasks.map((t) => [t.id, t.status.state])).toEqual([['crashed', 'TASK_STATE_COMPLETED']]);
    expect(JSON.parse((await store.client.hget(store.keys.owner('bob').meta, 'crashed')) as string).v).toBe(3);
  });

  it('drops, on a ListTasks page, an entry whose task a crash left unindexed as finished and which then expired', async () => {
    await store.create(newTask('gone', 'ctx', message('gone'), new Date().toISOString()), 'carol');
    // Killed after the task's COMPLETED (with a 150 ms TTL) and before its index step: the entry has no expiry.
    const keys = store.keys.task('gone');
    const stored = await store.get('gone');
    const done = { ...stored?.task, status: status('TASK_STATE_COMPLETED').status };
    await store.script(
      'a2aAppendPublish',
      [keys.task, keys.log, keys.push, keys.pushOrder, keys.pushState, keys.wake],
      [
        1,
        'TASK_STATE_COMPLETED',
        done.status.timestamp,
        JSON.stringify(done),
        JSON.stringify(status('TASK_STATE_COMPLETED')),
        150,
      ],
    );
    await eventually(async () => ((await store.client.exists(keys.task)) === 0 ? true : undefined));
    const first = await store.list('carol', { pageSize: 10 });
    expect(first.tasks).toEqual([]);
    expect((await store.list('carol', { pageSize: 10 })).totalSize).toBe(0);
    expect(await store.client.hget(store.keys.owner('carol').meta, 'gone')).toBeNull();
  });

  it('lists a task id used again after the finished task expired, not hidden by the old entry of a higher version', async () => {
    const short = await RedisTaskStore.connect({
      url,
      keyPrefix: freshPrefix('creuse'),
      finishedTaskTtlMs: 200,
      onError: () => {},
    });
    try {
      await short.create(newTask('again', 'ctx', message('again'), new Date().toISOString()), 'owner');
      await short.append('again', 1, status('TASK_STATE_WORKING'));
      await short.append('again', 2, status('TASK_STATE_COMPLETED'));
      await eventually(async () =>
        (await short.client.exists(short.keys.task('again').task)) === 0 ? true : undefined,
      );
      await short.create(newTask('again', 'ctx', message('again'), new Date().toISOString()), 'owner');
      const listed = await short.list('owner', { pageSize: 10 });
      expect(listed.tasks.map((t) => [t.id, t.status.state])).toEqual([['again', 'TASK_STATE_SUBMITTED']]);
      expect(listed.totalSize).toBe(1);
    } finally {
      await short.close();
    }
  });

  it('wakes a subscriber on another instance for every append (sharded pub/sub), ', async () => {
    const prefix = freshPrefix('cwake');
    // A check interval far beyond the test: only the wake-up messages can deliver the events in time.
    const writer = await RedisTaskStore.connect({ url, keyPrefix: prefix, blockMs: 600_000, onError: () => {} });
    const reader = await RedisTaskStore.connect({ url, keyPrefix: prefix, blockMs: 600_000, onError: () => {} });
    try {
      const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
      for (const id of ids) await writer.create(newTask(id, 'ctx', message(id), new Date().toISOString()), 'o');
      const seen = new Map<string, number[]>();
      const drained = ids.map(async (id) => {
        const seqs: number[] = [];
        seen.set(id, seqs);
        for await (const record of reader.subscribe(id, 1)) seqs.push(record.seq);
      });
      for (const id of ids) {
        await writer.append(id, 1, status('TASK_STATE_WORKING'));
        await writer.append(id, 2, status('TASK_STATE_COMPLETED'));
      }
      await Promise.all(drained);
      for (const id of ids) expect(seen.get(id)).toEqual([2, 3]);
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});
