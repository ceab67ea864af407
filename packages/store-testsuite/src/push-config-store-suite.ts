import type { PushConfigStore, TaskPushNotificationConfig, TaskStore } from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { submittedTask, uid } from './fixtures.js';
import type { PushConfigStoreSuiteOptions } from './options.js';
import { eventually } from './wait.js';

const isTaskStore = (store: object): store is TaskStore =>
  typeof (store as Partial<TaskStore>).create === 'function' && typeof (store as Partial<TaskStore>).get === 'function';

/**
 * The PushConfigStore contract: configs kept per task and by id, replaced on save, listed per task, deleted
 * idempotently, handed out as copies, and seen from a second instance on the same backend.
 */
export function describePushConfigStore<S extends PushConfigStore>(
  name: string,
  options: PushConfigStoreSuiteOptions<S>,
): void {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const opened: S[] = [];

  async function open(): Promise<{ store: S; peer: S }> {
    const store = await options.create();
    opened.push(store);
    if (!options.createPeer) return { store, peer: store };
    const peer = await options.createPeer(store);
    if (peer !== store) opened.push(peer);
    return { store, peer };
  }

  async function newTaskId(store: S): Promise<string> {
    const task = submittedTask();
    if (options.createTask) await options.createTask(store, task.id);
    else if (isTaskStore(store)) await store.create(task, uid('owner'));
    return task.id;
  }

  const config = (taskId: string, id = uid('config'), extra: Partial<TaskPushNotificationConfig> = {}) =>
    ({
      taskId,
      id,
      url: `https://hooks.example.com/a2a/${encodeURIComponent(id)}?x=1`,
      ...extra,
    }) as TaskPushNotificationConfig;
  const byId = (configs: TaskPushNotificationConfig[]) => [...configs].sort((a, b) => (a.id < b.id ? -1 : 1));

  afterEach(async () => {
    for (const store of opened.splice(0).reverse()) await options.close?.(store);
  });

  const test = (title: string, fn: () => Promise<void>) => it(title, fn, timeoutMs * 2 + 10_000);

  describe(`${name}: PushConfigStore contract`, () => {
    test('saves, reads back and lists configs per task, every field kept', async () => {
      const { store, peer } = await open();
      const taskId = await newTaskId(store);
      const other = await newTaskId(store);
      const full = config(taskId, uid('full'), {
        token: 'opaque token é',
        authentication: { scheme: 'Bearer', credentials: 'secret' },
      });
      const plain = config(taskId);
      const elsewhere = config(other);
      for (const c of [full, plain, elsewhere]) await store.savePushConfig(c);
      for (const s of [store, peer]) {
        expect(await s.getPushConfig(taskId, full.id)).toEqual(full);
        expect(await s.getPushConfig(taskId, plain.id)).toEqual(plain);
        expect(await s.getPushConfig(taskId, elsewhere.id)).toBeUndefined();
        expect(await s.getPushConfig(taskId, uid('missing'))).toBeUndefined();
        expect(byId(await s.listPushConfigs(taskId))).toEqual(byId([full, plain]));
        expect(await s.listPushConfigs(other)).toEqual([elsewhere]);
      }
    });

    test('a task without configs lists none', async () => {
      const { store } = await open();
      const taskId = await newTaskId(store);
      expect(await store.listPushConfigs(taskId)).toEqual([]);
      expect(await store.getPushConfig(taskId, 'any')).toBeUndefined();
    });

    test('saving an id again replaces that config', async () => {
      const { store, peer } = await open();
      const taskId = await newTaskId(store);
      const first = config(taskId, uid('c'), { token: 'one' });
      await store.savePushConfig(first);
      const second = config(taskId, first.id, { url: 'https://other.example.com/hook' });
      await peer.savePushConfig(second);
      for (const s of [store, peer]) {
        await eventually(async () => expect(await s.getPushConfig(taskId, first.id)).toEqual(second), timeoutMs);
        expect(await s.listPushConfigs(taskId)).toEqual([second]);
      }
    });

    test('delete removes one config, and is idempotent', async () => {
      const { store, peer } = await open();
      const taskId = await newTaskId(store);
      const kept = config(taskId);
      const gone = config(taskId);
      await store.savePushConfig(kept);
      await store.savePushConfig(gone);
      await peer.deletePushConfig(taskId, gone.id);
      await store.deletePushConfig(taskId, gone.id);
      await store.deletePushConfig(taskId, uid('missing'));
      await store.deletePushConfig(uid('missing-task'), 'x');
      for (const s of [store, peer]) {
        expect(await s.getPushConfig(taskId, gone.id)).toBeUndefined();
        expect(await s.listPushConfigs(taskId)).toEqual([kept]);
      }
    });

    test('configs handed out are copies', async () => {
      const { store } = await open();
      const taskId = await newTaskId(store);
      const saved = config(taskId, uid('c'), { token: 't' });
      await store.savePushConfig(saved);
      const expected = { ...saved };
      saved.url = 'https://changed.example.com/';
      const read = await store.getPushConfig(taskId, saved.id);
      expect(read).toEqual(expected);
      if (read) read.token = 'changed';
      const [listed] = await store.listPushConfigs(taskId);
      if (listed) listed.url = 'https://changed.example.com/';
      expect(await store.getPushConfig(taskId, saved.id)).toEqual(expected);
    });
  });
}
