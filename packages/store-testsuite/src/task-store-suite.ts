// Long on purpose: the contract's cases form one catalogue over one closure (the opened stores, readers and the
// live-task helper each case uses), read top to bottom as the contract's sections.
import {
  applyTaskEvent,
  ConcurrentModificationError,
  InvalidPageTokenError,
  type Task,
  type TaskEvent,
  type TaskEventRecord,
  type TaskStore,
} from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactChunk, completed, liveEvent, range, seqs, status, submittedTask, uid, working } from './fixtures.js';
import type { StoreFactoryOptions, TaskStoreSuiteOptions } from './options.js';
import { bounded, eventually, Reader } from './wait.js';

const HOUR = 60 * 60 * 1000;
/**
 * The longest log a case writes to one live task: a store may trim older events of a live task (core's in-memory store
 * keeps the last 16) as long as it never feeds a subscriber across the gap; the trimming case checks that.
 */
const LOG = 12;

/**
 * The TaskStore contract (packages/core/src/store/task-store.ts) as vitest cases: versioned writes and conflicts, the
 * ordered per-task event log with resume from any sequence, live subscriptions (replay then tail, no gap, no
 * duplicate, registered synchronously, ended by abort or `return()`), caller scoping, ListTasks filters and paging,
 * finished-task expiry, concurrent writers, and two instances on one backend. `peek` and `createWith` are checked
 * when the store has them.
 */
export function describeTaskStore<S extends TaskStore>(name: string, options: TaskStoreSuiteOptions<S>): void {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const expiryTtlMs = options.expiryTtlMs ?? 200;
  /** A case waits a few times at most; vitest's own limit must not cut it short. */
  const caseTimeout = timeoutMs * 4 + 10_000;
  const opened: S[] = [];

  async function open(factory: StoreFactoryOptions = { finishedTaskTtlMs: HOUR }): Promise<{ store: S; peer: S }> {
    const store = await options.create(factory);
    opened.push(store);
    if (!options.createPeer) return { store, peer: store };
    const peer = await options.createPeer(store, factory);
    if (peer !== store) opened.push(peer);
    return { store, peer };
  }

  const subscribe = (store: TaskStore, taskId: string, afterSeq: number, signal?: AbortSignal): Reader =>
    track(new Reader(store.subscribe(taskId, afterSeq, signal), timeoutMs));
  const readers: Reader[] = [];
  const track = (reader: Reader): Reader => {
    readers.push(reader);
    return reader;
  };

  /** A live task with `events` events after its creation; returns it with the records and the local fold. */
  async function liveTask(store: TaskStore, events: number, owner = uid('owner')) {
    const created = submittedTask();
    await store.create(created, owner);
    const expected = structuredClone(created);
    const records: TaskEventRecord[] = [];
    for (let i = 0; i < events; i++) {
      const event = i === 0 ? working() : liveEvent(i, created.id, created.contextId);
      records.push(await store.append(created.id, i + 1, event));
      applyTaskEvent(expected, event);
    }
    return { id: created.id, contextId: created.contextId, owner, expected, records, version: events + 1 };
  }

  afterEach(async () => {
    for (const reader of readers.splice(0)) await reader.close();
    for (const store of opened.splice(0).reverse()) await options.close?.(store);
  });

  /** A case; `skip(reason)` reports it skipped (an optional method the store does not have), never passed. */
  const test = (title: string, fn: (skip: (reason: string) => void) => Promise<void>) =>
    it(title, ({ skip }) => fn((reason) => skip(reason)), caseTimeout);

  describe(`${name}: TaskStore contract`, () => {
    describe('versioned writes', () => {
      test('create stores the task at version 1, and get returns it (a copy)', async () => {
        const { store } = await open();
        const task = submittedTask();
        const stored = await store.create(task, uid('owner'));
        expect(stored.version).toBe(1);
        expect(stored.task).toEqual(task);
        const read = await store.get(task.id);
        expect(read).toEqual({ task, version: 1 });
        if (!read) return;
        read.task.status = { state: 'TASK_STATE_FAILED' };
        read.task.history?.push(task.history?.[0] as never);
        task.status = { state: 'TASK_STATE_CANCELED' };
        expect((await store.get(task.id))?.task).toEqual(stored.task);
      });

      test('an unknown task is not found', async () => {
        const { store } = await open();
        expect(await store.get(uid('missing'))).toBeUndefined();
        expect(await store.get(uid('missing'), uid('owner'))).toBeUndefined();
        expect(await store.readEvents(uid('missing'), 0)).toEqual([]);
        await expect(store.append(uid('missing'), 1, working())).rejects.toThrow();
      });

      test('creating a task id that exists fails and keeps the stored task', async () => {
        const { store } = await open();
        const task = submittedTask();
        const owner = uid('owner');
        await store.create(task, owner);
        await store.append(task.id, 1, working());
        await expect(store.create(submittedTask(task.id), uid('owner'))).rejects.toThrow();
        const read = await store.get(task.id, owner);
        expect(read?.version).toBe(2);
        expect(read?.task.status.state).toBe('TASK_STATE_WORKING');
        expect(read?.task.contextId).toBe(task.contextId);
      });

      test('append checks the version, returns the record and bumps the version by one', async () => {
        const { store } = await open();
        const task = submittedTask();
        await store.create(task, uid('owner'));
        const event = working();
        const record = await store.append(task.id, 1, event);
        expect(record).toEqual({
          taskId: task.id,
          contextId: task.contextId,
          seq: 2,
          event,
          state: 'TASK_STATE_WORKING',
        });
        const chunk = artifactChunk('a', 'one', false);
        expect(await store.append(task.id, 2, chunk)).toMatchObject({ seq: 3, state: 'TASK_STATE_WORKING' });
        const read = await store.get(task.id);
        expect(read?.version).toBe(3);
        expect(read?.task.artifacts).toEqual([{ artifactId: 'a', parts: [{ text: 'one' }] }]);
      });

      test('a stale writer gets ConcurrentModificationError and writes nothing', async () => {
        const { store } = await open();
        const live = await liveTask(store, 3);
        for (const stale of [1, 2, 3, 5]) {
          const error = await store.append(live.id, stale, completed()).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ConcurrentModificationError);
          expect(error).toMatchObject({ taskId: live.id, expectedVersion: stale, actualVersion: 4 });
        }
        expect(await store.get(live.id)).toEqual({ task: live.expected, version: 4 });
        expect(seqs(await store.readEvents(live.id, 0))).toEqual([2, 3, 4]);
      });

      test('an illegal change throws the state machine error and writes nothing', async () => {
        const { store } = await open();
        const task = submittedTask();
        await store.create(task, uid('owner'));
        await store.append(task.id, 1, completed());
        for (const event of [working(), artifactChunk('a', 'late', false), { kind: 'metadata', metadata: { a: 1 } }]) {
          const error = await store.append(task.id, 2, event as TaskEvent).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(Error);
          expect(error).not.toBeInstanceOf(ConcurrentModificationError);
        }
        const read = await store.get(task.id);
        expect(read?.version).toBe(2);
        expect(read?.task.status.state).toBe('TASK_STATE_COMPLETED');
      });

      test('the stored task is the fold of its log, for every event kind', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, LOG);
        for (const s of [store, peer]) {
          expect(await s.get(live.id)).toEqual({ task: live.expected, version: LOG + 1 });
          expect(await s.get(live.id, live.owner)).toEqual({ task: live.expected, version: LOG + 1 });
        }
        const records = await store.readEvents(live.id, 0);
        expect(records).toEqual(live.records);
      });

      test('createWith, when present, stores the task and its first event at once, or neither', async (skip) => {
        const { store, peer } = await open();
        if (!store.createWith) return skip('the store has no createWith (optional)');
        const task = submittedTask();
        const owner = uid('owner');
        const event = working();
        const { stored, record } = await store.createWith(task, owner, event);
        expect(stored).toEqual({ task, version: 1 });
        expect(record).toEqual({
          taskId: task.id,
          contextId: task.contextId,
          seq: 2,
          event,
          state: 'TASK_STATE_WORKING',
        });
        const expected = structuredClone(task);
        applyTaskEvent(expected, event);
        expect(await peer.get(task.id, owner)).toEqual({ task: expected, version: 2 });
        expect(await peer.readEvents(task.id, 1)).toEqual([record]);

        // An illegal first event (a finished task takes no change): neither the task nor the event is stored.
        const finished = submittedTask();
        finished.status = { state: 'TASK_STATE_COMPLETED', timestamp: finished.status.timestamp };
        await expect(store.createWith(finished, owner, working())).rejects.toThrow();
        expect(await peer.get(finished.id)).toBeUndefined();
        expect(await peer.readEvents(finished.id, 0)).toEqual([]);
        await expect(store.createWith(submittedTask(task.id), owner, working())).rejects.toThrow();
        expect((await peer.get(task.id))?.version).toBe(2);
      });

      test('peek, when present, gives the task at exactly that version or nothing', async (skip) => {
        const { store, peer } = await open();
        if (!store.peek) return skip('the store has no peek (optional)');
        const live = await liveTask(store, 3);
        for (const s of [store, peer]) {
          const current = s.peek?.(live.id, 4);
          if (current) expect(current).toEqual({ task: live.expected, version: 4 });
          expect(s.peek?.(live.id, 3)).toBeUndefined();
          expect(s.peek?.(live.id, 5)).toBeUndefined();
          expect(s.peek?.(uid('missing'), 1)).toBeUndefined();
        }
      });
    });

    describe('event log', () => {
      test('readEvents returns the records after any sequence, in order', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, LOG);
        for (const s of [store, peer]) {
          for (let after = 0; after <= live.version; after++) {
            const records = await s.readEvents(live.id, after);
            expect(records).toEqual(live.records.filter((r) => r.seq > after));
          }
        }
      });

      test('a long log is never handed out with a gap: whatever a store keeps is contiguous and current', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 40);
        for (const s of [store, peer]) {
          for (const after of [0, 1, 10, 30, 40]) {
            const records = await s.readEvents(live.id, after);
            if (records.length === 0) continue;
            expect(seqs(records)).toEqual(range(live.version - records.length + 1, live.version));
            expect(records[0]?.seq).toBeGreaterThan(after);
            expect(records).toEqual(live.records.slice(-records.length));
          }
          // A subscriber from the start gets every event from seq 2 on, or is ended at once (never fed across a gap).
          const reader = subscribe(s, live.id, 1);
          const first = await reader.next('the first record or the end');
          if (!first.done) {
            expect(first.value.seq).toBe(2);
            expect(seqs(await reader.take(live.version - 2))).toEqual(range(3, live.version));
          }
          await reader.close();
        }
      });
    });

    describe('subscriptions', () => {
      test('replay from any sequence, then the live tail: no gap, no duplicate', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 6);
        let version = live.version;
        for (let after = 1; after <= live.version; after++) {
          for (const s of [store, peer]) {
            const reader = subscribe(s, live.id, after);
            const replay = await reader.take(live.version - after);
            expect(replay).toEqual(live.records.filter((r) => r.seq > after));
            await reader.close();
          }
        }
        const readers = [store, peer].map((s) => subscribe(s, live.id, 3));
        const appended: TaskEventRecord[] = [];
        for (let i = 0; i < 4; i++) {
          appended.push(await store.append(live.id, version, liveEvent(i + 1, live.id, live.contextId)));
          version++;
        }
        for (const reader of readers) {
          expect(await reader.take(live.version - 3 + 4)).toEqual([...live.records.slice(2), ...appended]);
        }
        // A sentinel: a duplicate would arrive before it.
        const last = await store.append(live.id, version, completed());
        for (const reader of readers) expect(await reader.take(1)).toEqual([last]);
      });

      test('registration is synchronous: an append right after subscribe returns is delivered', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 1);
        const readers = [store, peer].map((s) => subscribe(s, live.id, live.version));
        const record = await store.append(live.id, live.version, artifactChunk('a', 'x', false));
        for (const reader of readers) expect(await reader.take(1)).toEqual([record]);
      });

      test('subscribing while appends are in flight: every event once, in order', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 1);
        let version = live.version;
        const writes: Promise<TaskEventRecord>[] = [];
        const readers: Reader[] = [];
        for (let i = 0; i < 8; i++) {
          // Each append starts once the previous one settled; subscribers open between and during them.
          const previous = writes[writes.length - 1];
          const v = version++;
          writes.push(
            (previous ?? Promise.resolve()).then(() => store.append(live.id, v, liveEvent(i, live.id, live.contextId))),
          );
          readers.push(subscribe(i % 2 ? peer : store, live.id, live.version));
          await Promise.resolve();
        }
        const records = await Promise.all(writes);
        const last = await store.append(live.id, version, completed());
        for (const reader of readers) expect(await reader.take(records.length + 1)).toEqual([...records, last]);
      });

      test('a subscriber at the current version gets only what comes next', async () => {
        const { store } = await open();
        const live = await liveTask(store, 4);
        const reader = subscribe(store, live.id, live.version);
        const next = await store.append(live.id, live.version, completed());
        expect(await reader.take(1)).toEqual([next]);
      });

      test('abort ends a subscription, also while its next() waits', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 2);
        for (const s of [store, peer]) {
          const controller = new AbortController();
          const reader = subscribe(s, live.id, live.version, controller.signal);
          const pending = reader.next('the end after abort');
          controller.abort();
          expect((await pending).done).toBe(true);
          const aborted = new AbortController();
          aborted.abort();
          const late = subscribe(s, live.id, 1, aborted.signal);
          // Aborted before it starts: it ends (after at most the replay; never live, never throwing).
          for (let i = 0; ; i++) {
            const next = await late.next('the end of a subscription aborted before it started');
            if (next.done) break;
            expect(i).toBeLessThan(live.version - 1);
          }
        }
        // The store still serves the task and its other subscribers.
        const reader = subscribe(peer, live.id, live.version);
        const record = await store.append(live.id, live.version, completed());
        expect(await reader.take(1)).toEqual([record]);
      });

      test('return() ends a subscription whose next() waits (how the engine closes departed clients)', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 2);
        for (const s of [store, peer]) {
          const iterator = s.subscribe(live.id, live.version)[Symbol.asyncIterator]();
          const pending = iterator.next();
          await new Promise((resolve) => setTimeout(resolve, 10));
          await bounded(Promise.resolve(iterator.return?.()), timeoutMs, 'return() while next() waits');
          expect((await bounded(pending, timeoutMs, 'the waiting next() after return()')).done).toBe(true);
        }
      });

      test('a subscription to an unknown task ends', async () => {
        const { store } = await open();
        await subscribe(store, uid('missing'), 0).end();
      });
    });

    describe('caller scoping', () => {
      test("another owner's task is not found and not listed; the engine's unscoped read finds it", async () => {
        const { store, peer } = await open();
        const alice = uid('alice');
        const bob = uid('bob');
        const task = submittedTask();
        await store.create(task, alice);
        for (const s of [store, peer]) {
          expect(await s.get(task.id, bob)).toBeUndefined();
          expect(await s.get(task.id, alice)).toEqual({ task, version: 1 });
          expect(await s.get(task.id)).toEqual({ task, version: 1 });
          expect(await s.list(bob, { pageSize: 10 })).toEqual({ tasks: [], totalSize: 0, nextPageToken: '' });
          expect(await s.list(bob, { pageSize: 10, contextId: task.contextId })).toMatchObject({ totalSize: 0 });
          expect((await s.list(alice, { pageSize: 10 })).tasks.map((t) => t.id)).toEqual([task.id]);
        }
      });
    });

    describe('ListTasks', () => {
      /** Five tasks of one owner over two contexts, then the first one moved to the top by a status change. */
      async function fiveTasks(store: TaskStore) {
        const owner = uid('owner');
        const even = uid('even');
        const odd = uid('odd');
        const tasks: Task[] = [];
        for (let i = 0; i < 5; i++) {
          const task = submittedTask(uid(`t${i}`), i % 2 ? odd : even);
          await store.create(task, owner);
          tasks.push(task);
        }
        const [t0, t1, t2, t3, t4] = tasks as [Task, Task, Task, Task, Task];
        await store.append(t0.id, 1, working());
        return { owner, even, odd, ids: [t0.id, t4.id, t3.id, t2.id, t1.id], t0, t1, t2, t3, t4 };
      }

      test('newest status first, paged with tokens, totalSize on every page', async () => {
        const { store, peer } = await open();
        const { owner, ids } = await fiveTasks(store);
        for (const s of [store, peer]) {
          const all = await s.list(owner, { pageSize: 10 });
          expect(all.tasks.map((t) => t.id)).toEqual(ids);
          expect(all).toMatchObject({ totalSize: 5, nextPageToken: '' });
          for (const pageSize of [1, 2, 3, 5]) {
            const seen: string[] = [];
            let pageToken: string | undefined;
            for (let page = 0; page < 6; page++) {
              const result = await s.list(owner, { pageSize, pageToken });
              expect(result.totalSize).toBe(5);
              expect(result.tasks.length).toBeLessThanOrEqual(pageSize);
              seen.push(...result.tasks.map((t) => t.id));
              if (!result.nextPageToken) break;
              pageToken = result.nextPageToken;
            }
            expect(seen).toEqual(ids);
          }
        }
      });

      test('filters by context, status and status time (inclusive), with paging', async () => {
        const { store, peer } = await open();
        const { owner, odd, even, t0, t1, t2, t3, t4 } = await fiveTasks(store);
        for (const s of [store, peer]) {
          const ids = async (query: Parameters<TaskStore['list']>[1]) => {
            const result = await s.list(owner, query);
            return { ids: result.tasks.map((t) => t.id), totalSize: result.totalSize, next: result.nextPageToken };
          };
          expect(await ids({ pageSize: 10, contextId: odd })).toEqual({ ids: [t3.id, t1.id], totalSize: 2, next: '' });
          expect(await ids({ pageSize: 10, contextId: even })).toEqual({
            ids: [t0.id, t4.id, t2.id],
            totalSize: 3,
            next: '',
          });
          expect(await ids({ pageSize: 10, status: 'TASK_STATE_WORKING' })).toEqual({
            ids: [t0.id],
            totalSize: 1,
            next: '',
          });
          expect((await ids({ pageSize: 10, status: 'TASK_STATE_SUBMITTED' })).totalSize).toBe(4);
          expect(await ids({ pageSize: 10, status: 'TASK_STATE_COMPLETED' })).toEqual({
            ids: [],
            totalSize: 0,
            next: '',
          });
          const after = t3.status.timestamp ?? '';
          expect(await ids({ pageSize: 10, statusTimestampAfter: after })).toEqual({
            ids: [t0.id, t4.id, t3.id],
            totalSize: 3,
            next: '',
          });
          const first = await ids({ pageSize: 1, contextId: even });
          expect(first).toMatchObject({ ids: [t0.id], totalSize: 3 });
          const second = await s.list(owner, { pageSize: 1, contextId: even, pageToken: first.next });
          expect(second.tasks.map((t) => t.id)).toEqual([t4.id]);
          expect(second.totalSize).toBe(3);
        }
      });

      test('history length and artifacts as asked', async () => {
        const { store, peer } = await open();
        const owner = uid('owner');
        const live = await liveTask(store, 8, owner);
        const history = live.expected.history ?? [];
        expect(history.length).toBeGreaterThan(2);
        for (const s of [store, peer]) {
          const [full] = (await s.list(owner, { pageSize: 1 })).tasks;
          expect(full).toEqual(live.expected);
          const [trimmed] = (await s.list(owner, { pageSize: 1, historyLength: 1, includeArtifacts: false })).tasks;
          expect(trimmed?.history).toEqual(history.slice(-1));
          expect(trimmed?.artifacts).toBeUndefined();
          const [none] = (await s.list(owner, { pageSize: 1, historyLength: 0 })).tasks;
          expect(none?.history ?? []).toEqual([]);
          expect(none?.artifacts).toEqual(live.expected.artifacts);
        }
      });

      test('a page token the store did not issue is refused with InvalidPageTokenError', async () => {
        const { store } = await open();
        const { owner } = await fiveTasks(store);
        for (const pageToken of ['garbage', '!!!', 'dA', ' ']) {
          await expect(store.list(owner, { pageSize: 2, pageToken })).rejects.toBeInstanceOf(InvalidPageTokenError);
        }
      });
    });

    describe('concurrent writers', () => {
      test('writers racing on one version: exactly one wins, the others get ConcurrentModificationError', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 1);
        const results = await Promise.allSettled(
          range(0, 9).map((i) =>
            (i % 2 ? peer : store).append(live.id, live.version, artifactChunk(`r${i}`, 'x', false)),
          ),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        expect(won).toHaveLength(1);
        for (const r of results) {
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConcurrentModificationError);
        }
        const read = await peer.get(live.id);
        expect(read?.version).toBe(live.version + 1);
        expect(read?.task.artifacts).toHaveLength(1);
      });

      test('twelve writers on two instances, each retrying on conflict: nothing lost, duplicated or reordered', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 1);
        const tail = [store, peer].map((s) => subscribe(s, live.id, live.version));
        const writers = range(0, LOG - 1).map(async (i) => {
          const s = i % 2 ? peer : store;
          for (;;) {
            const current = await s.get(live.id);
            if (!current) throw new Error('task gone');
            try {
              return await s.append(live.id, current.version, artifactChunk(`w${i}`, `writer ${i}`, false));
            } catch (error) {
              if (!(error instanceof ConcurrentModificationError)) throw error;
            }
          }
        });
        const records = await Promise.all(writers);
        expect(seqs(records).sort((a, b) => a - b)).toEqual(range(live.version + 1, live.version + LOG));
        const log = await peer.readEvents(live.id, live.version);
        expect(log).toEqual([...records].sort((a, b) => a.seq - b.seq));
        const read = await store.get(live.id);
        expect(read?.version).toBe(live.version + LOG);
        expect(read?.task.artifacts?.map((a) => a.artifactId).sort()).toEqual(
          range(0, LOG - 1)
            .map((i) => `w${i}`)
            .sort(),
        );
        for (const reader of tail) expect(await reader.take(LOG)).toEqual(log);
      });

      test('concurrent creates of one id: exactly one is stored', async () => {
        const { store, peer } = await open();
        const id = uid('task');
        const candidates = range(0, 5).map(() => submittedTask(id));
        const results = await Promise.allSettled(
          candidates.map((t, i) => (i % 2 ? peer : store).create(t, uid('owner'))),
        );
        const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [candidates[i]] : []));
        expect(won).toHaveLength(1);
        expect((await peer.get(id))?.task).toEqual(won[0]);
      });
    });

    describe('two instances on one backend', () => {
      test('a write on one is read, versioned and listed on the other', async () => {
        const { store, peer } = await open();
        const owner = uid('owner');
        const task = submittedTask();
        await store.create(task, owner);
        expect(await peer.get(task.id, owner)).toEqual({ task, version: 1 });
        const record = await peer.append(task.id, 1, working());
        expect((await store.get(task.id, owner))?.version).toBe(2);
        await expect(store.append(task.id, 1, completed())).rejects.toBeInstanceOf(ConcurrentModificationError);
        expect(await store.readEvents(task.id, 0)).toEqual([record]);
        expect((await store.list(owner, { pageSize: 5 })).tasks.map((t) => t.status.state)).toEqual([
          'TASK_STATE_WORKING',
        ]);
      });

      test('a write on one is streamed on the other, and a stream resumes on either from any sequence', async () => {
        const { store, peer } = await open();
        const live = await liveTask(store, 1);
        const onPeer = subscribe(peer, live.id, live.version);
        const onStore = subscribe(store, live.id, live.version);
        const written: TaskEventRecord[] = [];
        for (let i = 0; i < 6; i++) {
          const writer = i % 2 ? peer : store;
          written.push(await writer.append(live.id, live.version + i, liveEvent(i + 1, live.id, live.contextId)));
        }
        expect(await onPeer.take(6)).toEqual(written);
        expect(await onStore.take(6)).toEqual(written);
        const resumed: Reader[] = [];
        for (let after = live.version; after <= live.version + 6; after++) {
          const reader = subscribe(after % 2 ? store : peer, live.id, after);
          expect(await reader.take(live.version + 6 - after)).toEqual(written.filter((r) => r.seq > after));
          resumed.push(reader);
        }
        // Each resumed stream goes on live with the next write, whichever instance makes it.
        const last = await peer.append(live.id, live.version + 6, completed());
        for (const reader of [...resumed, onPeer, onStore]) expect(await reader.take(1)).toEqual([last]);
      });
    });

    describe('finished-task expiry', () => {
      test('a finished task stays readable within its TTL', async () => {
        const { store, peer } = await open();
        const owner = uid('owner');
        const task = submittedTask();
        await store.create(task, owner);
        await store.append(task.id, 1, completed());
        for (const s of [store, peer]) {
          expect((await s.get(task.id, owner))?.task.status.state).toBe('TASK_STATE_COMPLETED');
          expect((await s.list(owner, { pageSize: 5 })).totalSize).toBe(1);
        }
      });

      test('a finished task goes after finishedTaskTtlMs, with its log, ending its subscriptions; live tasks stay', async () => {
        const { store, peer } = await open({ finishedTaskTtlMs: expiryTtlMs });
        const owner = uid('owner');
        const live = await liveTask(store, 2, owner);
        const waiting = submittedTask();
        await store.create(waiting, owner);
        await store.append(waiting.id, 1, status('TASK_STATE_INPUT_REQUIRED'));
        const finished = submittedTask();
        await store.create(finished, owner);
        await store.append(finished.id, 1, working());
        await store.append(finished.id, 2, status('TASK_STATE_FAILED'));
        // Subscribers still open on the finished task: they end when it goes.
        const tails = [store, peer].map((s) => subscribe(s, finished.id, 3));
        for (const s of [store, peer]) {
          await eventually(async () => {
            expect(await s.get(finished.id)).toBeUndefined();
            const page = await s.list(owner, { pageSize: 10 });
            expect(page.tasks.map((t) => t.id).sort()).toEqual([live.id, waiting.id].sort());
            expect(page.totalSize).toBe(2);
          }, timeoutMs);
          expect(await s.readEvents(finished.id, 0)).toEqual([]);
          expect(await s.get(finished.id, owner)).toBeUndefined();
        }
        for (const reader of tails) await reader.end();
        await subscribe(peer, finished.id, 0).end();
        // Older than the TTL by now, but not finished: kept, and still writable.
        expect((await peer.get(live.id, owner))?.version).toBe(live.version);
        expect((await peer.get(waiting.id, owner))?.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        await store.append(live.id, live.version, completed());
      });
    });
  });
}
