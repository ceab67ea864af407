import { describe, expect, it } from 'vitest';
import { newTask } from '../task-state.js';
import { appendNow, createOwned, InMemoryTaskStore } from './in-memory-task-store.js';
import { ConcurrentModificationError, InvalidPageTokenError } from './task-store.js';

const msg = { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text: 'x' }] };
let clock = 0;
const ts = () => new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString();
const task = (id: string, contextId = 'c') => newTask(id, contextId, msg, ts());
const working = () => ({ kind: 'status' as const, status: { state: 'TASK_STATE_WORKING' as const, timestamp: ts() } });
const done = () => ({ kind: 'status' as const, status: { state: 'TASK_STATE_COMPLETED' as const, timestamp: ts() } });

describe('InMemoryTaskStore', () => {
  it('versions every write and rejects a stale writer without changing anything', async () => {
    const store = new InMemoryTaskStore();
    expect((await store.create(task('t'), 'o')).version).toBe(1);
    const record = await store.append('t', 1, working());
    expect(record).toMatchObject({ seq: 2, state: 'TASK_STATE_WORKING', taskId: 't', contextId: 'c' });
    await expect(store.append('t', 1, done())).rejects.toBeInstanceOf(ConcurrentModificationError);
    expect((await store.get('t'))?.task.status.state).toBe('TASK_STATE_WORKING');
    expect((await store.get('t'))?.version).toBe(2);
  });

  it('rejects an illegal transition and keeps the stored task', async () => {
    const store = new InMemoryTaskStore();
    await store.create(task('t'), 'o');
    await store.append('t', 1, done());
    await expect(store.append('t', 2, working())).rejects.toThrow(/Illegal task state transition/);
    expect((await store.get('t'))?.version).toBe(2);
  });

  it('scopes reads to the owner', async () => {
    const store = new InMemoryTaskStore();
    await store.create(task('t'), 'alice');
    expect(await store.get('t', 'bob')).toBeUndefined();
    expect(await store.get('t', 'alice')).toBeDefined();
    expect((await store.list('bob', { pageSize: 10 })).tasks).toEqual([]);
  });

  it('lists newest status first with cursors, filters and totals', async () => {
    const store = new InMemoryTaskStore();
    for (let i = 0; i < 5; i++) await store.create(task(`t${i}`, i % 2 ? 'odd' : 'even'), 'o');
    await store.append('t0', 1, working()); // t0 becomes the most recent
    const first = await store.list('o', { pageSize: 2 });
    expect(first.tasks.map((t) => t.id)).toEqual(['t0', 't4']);
    expect(first.totalSize).toBe(5);
    const second = await store.list('o', { pageSize: 2, pageToken: first.nextPageToken });
    expect(second.tasks.map((t) => t.id)).toEqual(['t3', 't2']);
    const third = await store.list('o', { pageSize: 2, pageToken: second.nextPageToken });
    expect(third.tasks.map((t) => t.id)).toEqual(['t1']);
    expect(third.nextPageToken).toBe('');
    expect((await store.list('o', { pageSize: 10, contextId: 'odd' })).tasks.map((t) => t.id)).toEqual(['t3', 't1']);
    expect((await store.list('o', { pageSize: 10, status: 'TASK_STATE_WORKING' })).totalSize).toBe(1);
    const t3 = (await store.get('t3'))?.task.status.timestamp ?? '';
    expect((await store.list('o', { pageSize: 10, statusTimestampAfter: t3 })).tasks.map((t) => t.id)).toEqual([
      't0',
      't4',
      't3',
    ]);
    await expect(store.list('o', { pageSize: 2, pageToken: 'garbage' })).rejects.toBeInstanceOf(InvalidPageTokenError);
  });

  it('is bounded: evicts the least recently used task and expires finished ones', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 3, terminalTtlMs: 20 });
    for (let i = 0; i < 5; i++) await store.create(task(`t${i}`), 'o');
    expect(store.size).toBe(3);
    expect(await store.get('t0')).toBeUndefined();
    expect((await store.list('o', { pageSize: 10 })).totalSize).toBe(3);
    await store.append('t4', 1, done());
    await new Promise((r) => setTimeout(r, 40));
    expect(await store.get('t4')).toBeUndefined();
    expect(await store.get('t3')).toBeDefined();
  });

  it('ends every subscriber of an evicted task', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 1 });
    await store.create(task('t'), 'o');
    const waiting = [1, 2, 3].map(() => store.subscribe('t', 1)[Symbol.asyncIterator]().next());
    await store.create(task('u'), 'o'); // evicts t
    for (const next of waiting) expect((await next).done).toBe(true);
  });

  it('feeds subscribers in order from the requested sequence, registered synchronously', async () => {
    const store = new InMemoryTaskStore();
    await store.create(task('t'), 'o');
    await store.append('t', 1, working());
    const controller = new AbortController();
    const subscription = store.subscribe('t', 1, controller.signal);
    await store.append('t', 2, { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: '1' }] } });
    await store.append('t', 3, done());
    const seen: number[] = [];
    for await (const record of subscription) {
      seen.push(record.seq);
      if (record.state === 'TASK_STATE_COMPLETED') break;
    }
    expect(seen).toEqual([2, 3, 4]);
    // A finished task's log is compacted: its snapshot is the contract.
    expect(await store.readEvents('t', 0)).toEqual([]);
  });

  it('reads back every event while the log fills (it grows in steps) and after it wraps, each with its state', async () => {
    const store = new InMemoryTaskStore({ liveLogSize: 5 });
    await store.create(task('t'), 'o');
    await store.append('t', 1, working());
    for (let v = 2; v < 14; v++) {
      await store.append('t', v, { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: `${v}` }] } });
      const log = await store.readEvents('t', 0);
      const from = Math.max(2, v + 1 - 4);
      expect(log.map((r) => r.seq)).toEqual(Array.from({ length: v + 2 - from }, (_, i) => from + i));
      expect(log.map((r) => r.state)).toEqual(log.map(() => 'TASK_STATE_WORKING'));
      const texts = log.map((r) => (r.event.kind === 'artifact' ? r.event.artifact.parts[0] : r.event.kind));
      expect(texts).toEqual(log.map((r) => (r.seq === 2 ? 'status' : { text: `${r.seq - 1}` })));
    }
  });

  it('keeps a bounded log of a live task, and never feeds a subscriber across a trimmed gap', async () => {
    const store = new InMemoryTaskStore({ liveLogSize: 8 });
    await store.create(task('t'), 'o');
    await store.append('t', 1, working());
    for (let v = 2; v < 202; v++) {
      await store.append('t', v, {
        kind: 'artifact',
        artifact: { artifactId: 'a', parts: [{ text: `${v}` }] },
        append: v > 2,
      });
    }
    const log = await store.readEvents('t', 0);
    // Exactly the newest 8 (a ring: no spare records held), oldest first; from a later point, only what follows it.
    expect(log.map((r) => r.seq)).toEqual([195, 196, 197, 198, 199, 200, 201, 202]);
    expect((await store.readEvents('t', 199)).map((r) => r.seq)).toEqual([200, 201, 202]);
    // The snapshot still holds every chunk.
    expect((await store.get('t'))?.task.artifacts?.[0]?.parts).toHaveLength(200);

    // Within the window: gap-free from the requested sequence. Behind it: ended at once, nothing delivered.
    const recent = store.subscribe('t', 200)[Symbol.asyncIterator]();
    expect((await recent.next()).value?.seq).toBe(201);
    expect((await recent.next()).value?.seq).toBe(202);
    const behind = store.subscribe('t', 3)[Symbol.asyncIterator]();
    expect((await behind.next()).done).toBe(true);
    // The edge of the window: from 194 every record is held (195…), from 193 the next one (194) is gone.
    const edge = store.subscribe('t', 194)[Symbol.asyncIterator]();
    expect((await edge.next()).value?.seq).toBe(195);
    expect((await store.subscribe('t', 193)[Symbol.asyncIterator]().next()).done).toBe(true);
    await edge.return?.();
    await recent.return?.();
  });

  it('ends subscriptions on abort and releases them', async () => {
    const store = new InMemoryTaskStore();
    await store.create(task('t'), 'o');
    const controller = new AbortController();
    const iterator = store.subscribe('t', 1, controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    controller.abort();
    expect((await pending).done).toBe(true);
    expect((store as unknown as { subscribers: Map<string, unknown> }).subscribers.size).toBe(0);
  });

  it('ends a subscription whose next() is pending when return() is called (how the engine closes streams)', async () => {
    const store = new InMemoryTaskStore();
    await store.create(task('t'), 'o');
    const iterator = store.subscribe('t', 1)[Symbol.asyncIterator]();
    const pending = iterator.next();
    await iterator.return?.();
    expect((await pending).done).toBe(true);
    expect((store as unknown as { subscribers: Map<string, unknown> }).subscribers.size).toBe(0);
  });

  it('stores push configs per task', async () => {
    const store = new InMemoryTaskStore();
    await store.create(task('t'), 'o');
    await store.savePushConfig({ taskId: 't', id: 'p', url: 'https://example.com/hook' });
    expect(await store.listPushConfigs('t')).toEqual([{ taskId: 't', id: 'p', url: 'https://example.com/hook' }]);
    await store.deletePushConfig('t', 'p');
    await store.deletePushConfig('t', 'p');
    expect(await store.getPushConfig('t', 'p')).toBeUndefined();
  });

  it("creates synchronously for the engine, answering with the caller's task while storing its own copy", async () => {
    const store = new InMemoryTaskStore();
    const mine = task('t');
    const stored = createOwned(store, mine, 'o');
    expect(stored?.task).toBe(mine);
    expect(stored?.version).toBe(1);
    await store.append('t', 1, working());
    expect(mine.status.state).toBe('TASK_STATE_SUBMITTED'); // the store applies events to its copy
    expect((await store.get('t', 'o'))?.task.status.state).toBe('TASK_STATE_WORKING');
    expect(() => createOwned(store, task('t'), 'o')).toThrow(/already exists/);
  });

  it("keeps the engine's task itself when it is handed over (no copy), applying later events to it", async () => {
    const store = new InMemoryTaskStore();
    const mine = task('t');
    expect(createOwned(store, mine, 'o', true)?.task).toBe(mine);
    await store.append('t', 1, working());
    expect(mine.status.state).toBe('TASK_STATE_WORKING');
    // Readers still get copies of their own.
    const read = await store.get('t', 'o');
    expect(read?.task).not.toBe(mine);
    expect(read?.task).toEqual(mine);
  });

  it('leaves a store whose create is overridden to its own create', async () => {
    let created = 0;
    class Counting extends InMemoryTaskStore {
      override async create(...args: Parameters<InMemoryTaskStore['create']>) {
        created++;
        return super.create(...args);
      }
    }
    const store = new Counting();
    expect(createOwned(store, task('t'), 'o')).toBeUndefined();
    expect(created).toBe(0);
    expect(await store.get('t')).toBeUndefined();
  });

  it('appends synchronously for the engine, throwing what append rejects with, unless append is overridden', async () => {
    const store = new InMemoryTaskStore();
    await store.create(task('t'), 'o');
    expect(appendNow(store, 't', 1, working())).toMatchObject({ seq: 2, state: 'TASK_STATE_WORKING' });
    expect(() => appendNow(store, 't', 1, done())).toThrow(ConcurrentModificationError);
    class Overridden extends InMemoryTaskStore {
      override append(...args: Parameters<InMemoryTaskStore['append']>) {
        return super.append(...args);
      }
    }
    const other = new Overridden();
    await other.create(task('u'), 'o');
    expect(appendNow(other, 'u', 1, working())).toBeUndefined();
    expect((await other.get('u'))?.version).toBe(1);
  });
});
