import {
  A2AError,
  ConcurrentModificationError,
  InvalidPageTokenError,
  newTask,
  type Task,
  type TaskEventRecord,
  type TaskState,
} from '@a2a/core';
import { eventually } from '@a2a/store-testsuite/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, PostgresExecutionCoordinator, PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

const message = (text: string, taskId: string, contextId: string) => ({
  messageId: `m-${text}`,
  role: 'ROLE_USER' as const,
  parts: [{ text }],
  taskId,
  contextId,
});
let clock = Date.parse('2026-01-01T00:00:00Z');
const now = () => {
  clock += 1000;
  return new Date(clock).toISOString();
};
const task = (id: string, contextId = 'ctx'): Task => newTask(id, contextId, message('hi', id, contextId), now());
const odd = (i: number) => `${i} "q" \\ \\u0000 \u0000 😀 é`;
const status = (state: TaskState) => ({ kind: 'status' as const, status: { state, timestamp: now() } });

describe.runIf(hasDatabase)('PostgresTaskStore', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: PostgresTaskStore;
  let b: PostgresTaskStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    a = await PostgresTaskStore.connect({ connection: db.url, pollIntervalMs: 200, onError: () => {} });
    b = await PostgresTaskStore.connect({ connection: db.url, pollIntervalMs: 200, onError: () => {} });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('a long stream rewrites its task every 16 versions, and every read applies the logged events after it', async () => {
    await a.create(task('long'), 'alice');
    await a.append('long', 1, status('TASK_STATE_WORKING'));
    const chunk = (i: number) => ({
      kind: 'artifact' as const,
      artifact: { artifactId: 'out', parts: [{ text: `c${i}` }] },
      append: i > 0,
    });
    for (let i = 0; i < 40; i++) await a.append('long', 2 + i, chunk(i));
    const texts = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const row = async () =>
      (
        await a.pool.query<{ version: string; snapshot_version: string | null; parts: number }>(
          "SELECT version, snapshot_version, json_array_length(task->'artifacts'->0->'parts') AS parts FROM a2a_tasks WHERE id = 'long'",
        )
      ).rows[0];
    // Versions 3..42 are the chunks; the last snapshot is at 32 (30 chunks in it), the log holds 33..42.
    expect(await row()).toEqual({ version: '42', snapshot_version: '32', parts: 30 });
    // Another instance (no cache) reads the current task: snapshot + logged chunks, in order.
    const read = await b.get('long', 'alice');
    expect(read?.version).toBe(42);
    expect(read?.task.artifacts?.[0]?.parts.map((p) => ('text' in p ? p.text : ''))).toEqual(texts);
    const listed = await b.list('alice', { pageSize: 50 });
    const inList = listed.tasks.find((t) => t.id === 'long');
    expect(inList?.artifacts?.[0]?.parts).toHaveLength(40);
    // B appends from its read (a version-checked write on the folded task), then a status change rewrites it whole.
    await b.append('long', 42, chunk(40));
    await b.append('long', 43, status('TASK_STATE_COMPLETED'));
    expect(await row()).toEqual({ version: '44', snapshot_version: null, parts: 41 });
    expect((await a.get('long'))?.task.artifacts?.[0]?.parts).toHaveLength(41);
  });

  it('retention deletes finished tasks past their TTL with their logs and push configs, and nothing else', async () => {
    const sweeper = new PostgresTaskStore({
      connection: db.url,
      retention: { finishedTaskTtlMs: 60_000, intervalMs: 3_600_000, batchSize: 2 },
      onError: () => {},
    });
    try {
      for (const id of ['old-1', 'old-2', 'old-3', 'old-running', 'new-done']) await a.create(task(id), 'alice');
      for (const id of ['old-1', 'old-2', 'old-3', 'new-done']) await a.append(id, 1, status('TASK_STATE_COMPLETED'));
      await a.savePushConfig({ taskId: 'old-1', id: 'p', url: 'https://hooks.example.com/x' });
      await a.pool.query("UPDATE a2a_tasks SET updated_at = now() - interval '2 minutes' WHERE id = ANY($1)", [
        ['old-1', 'old-2', 'old-3', 'old-running'],
      ]);
      expect(await sweeper.sweep()).toBe(3); // two batches of at most 2
      for (const id of ['old-1', 'old-2', 'old-3']) expect(await b.get(id)).toBeUndefined();
      expect(await b.readEvents('old-1', 0)).toEqual([]);
      const leftovers = await a.pool.query(
        "SELECT (SELECT count(*) FROM a2a_task_events WHERE task_id LIKE 'old-%' AND task_id <> 'old-running') AS events, (SELECT count(*) FROM a2a_push_configs WHERE task_id = 'old-1') AS configs",
      );
      expect(leftovers.rows[0]).toEqual({ events: '0', configs: '0' });
      expect((await b.get('old-running'))?.task.status.state).toBe('TASK_STATE_SUBMITTED'); // not finished: kept
      expect((await b.get('new-done'))?.task.status.state).toBe('TASK_STATE_COMPLETED'); // recent: kept
      expect(await sweeper.sweep()).toBe(0);
    } finally {
      await sweeper.close();
    }
  });

  it('a lease handed over at shutdown is reaped at the next janitor tick, long before its TTL', async () => {
    const janitor = new PostgresExecutionCoordinator({ store: b, leaseTtlMs: 300, instanceId: 'janitor' });
    const leaving = new PostgresExecutionCoordinator({ store: a, leaseTtlMs: 600_000, instanceId: 'leaving' });
    try {
      await a.create(task('handed-over'), 'alice');
      await a.append('handed-over', 1, status('TASK_STATE_WORKING'));
      const lease = leaving.track({ taskId: 'handed-over', abort: () => {} });
      await leaving.tick();
      lease.release(true); // stopped at shutdown without being able to fail its task
      const failed = await eventually(async () => {
        await janitor.tick();
        const found = (await b.get('handed-over'))?.task;
        return found?.status.state === 'TASK_STATE_FAILED' ? found : undefined;
      });
      expect(failed?.status.message?.parts[0]?.text).toMatch(/instance leaving stopped renewing/);
    } finally {
      janitor.close();
      leaving.close();
    }
  });

  it('fails a running task that never got a lease (its instance died first), not one whose lease is alive', async () => {
    const janitor = new PostgresExecutionCoordinator({ store: b, leaseTtlMs: 300, instanceId: 'janitor' });
    const owner = new PostgresExecutionCoordinator({ store: a, leaseTtlMs: 60_000, instanceId: 'alive' });
    try {
      for (const id of ['orphan', 'leased']) {
        await a.create(task(id), 'alice');
        await a.append(id, 1, status('TASK_STATE_WORKING'));
      }
      const lease = owner.track({ taskId: 'leased', abort: () => {} });
      await owner.tick(); // writes its lease
      await a.pool.query("UPDATE a2a_tasks SET updated_at = now() - interval '1 minute' WHERE id = ANY($1)", [
        ['orphan', 'leased'],
      ]);
      // The janitor acts once it has been connected for a full TTL (its own heartbeat runs meanwhile).
      const orphan = await eventually(async () => {
        await janitor.tick();
        const found = (await b.get('orphan'))?.task;
        return found?.status.state === 'TASK_STATE_FAILED' ? found : undefined;
      });
      expect(orphan?.status.message?.parts[0]?.text).toMatch(/no running instance holds an execution lease/);
      expect((await b.get('leased'))?.task.status.state).toBe('TASK_STATE_WORKING');
      lease.release();
    } finally {
      janitor.close();
      owner.close();
    }
  });

  it('migrates once, even when called again', async () => {
    expect(await migrate(a.pool)).toEqual([]);
  });

  it('appends with version checks, and the log replays to the stored task', async () => {
    await a.create(task('t1'), 'alice');
    const r2 = await a.append('t1', 1, status('TASK_STATE_WORKING'));
    expect(r2).toMatchObject({ seq: 2, state: 'TASK_STATE_WORKING', contextId: 'ctx' });
    await expect(b.append('t1', 1, status('TASK_STATE_COMPLETED'))).rejects.toMatchObject({
      name: 'ConcurrentModificationError',
      actualVersion: 2,
    });
    await b.append('t1', 2, { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: 'x' }] } });
    // A stale cache on `a` (it wrote version 2) must not let it overwrite b's version 3.
    await expect(a.append('t1', 2, status('TASK_STATE_COMPLETED'))).rejects.toBeInstanceOf(ConcurrentModificationError);
    await a.append('t1', 3, status('TASK_STATE_COMPLETED'));
    const stored = await b.get('t1');
    expect(stored?.version).toBe(4);
    expect(stored?.task.artifacts?.[0]?.artifactId).toBe('a');
    expect((await a.readEvents('t1', 0)).map((r) => r.seq)).toEqual([2, 3, 4]);
    // Illegal transitions come from the state machine, and nothing is written.
    await expect(a.append('t1', 4, status('TASK_STATE_WORKING'))).rejects.toBeInstanceOf(A2AError);
    expect((await b.get('t1'))?.version).toBe(4);
  });

  it('metadata events merge into the task on every instance, in the log and for subscribers', async () => {
    await a.create({ ...task('meta'), metadata: { a: 1 } }, 'alice');
    const seen = b.subscribe('meta', 1)[Symbol.asyncIterator]();
    await a.append('meta', 1, status('TASK_STATE_WORKING'));
    await a.append('meta', 2, { kind: 'metadata', metadata: { a: 2, b: 'x' } });
    // Not a status change: the row keeps its snapshot of version 2, and reads apply the logged event after it.
    const read = await b.get('meta', 'alice');
    expect(read).toMatchObject({ version: 3, task: { metadata: { a: 2, b: 'x' } } });
    expect((await b.list('alice', { pageSize: 50 })).tasks.find((t) => t.id === 'meta')?.metadata).toEqual({
      a: 2,
      b: 'x',
    });
    expect((await b.readEvents('meta', 2)).map((r) => r.event)).toEqual([
      { kind: 'metadata', metadata: { a: 2, b: 'x' } },
    ]);
    expect((await seen.next()).value).toMatchObject({ seq: 2 });
    expect((await seen.next()).value).toMatchObject({ seq: 3, event: { kind: 'metadata' } });
    await seen.return?.();
    await b.append('meta', 3, status('TASK_STATE_COMPLETED'));
    await expect(a.append('meta', 4, { kind: 'metadata', metadata: { late: true } })).rejects.toBeInstanceOf(A2AError);
    expect((await a.get('meta'))?.task.metadata).toEqual({ a: 2, b: 'x' });
  });

  it('scopes reads by owner', async () => {
    await a.create(task('t-owned'), 'alice');
    expect(await b.get('t-owned', 'bob')).toBeUndefined();
    expect((await b.get('t-owned', 'alice'))?.task.id).toBe('t-owned');
    expect((await b.list('bob', { pageSize: 10 })).tasks).toEqual([]);
  });

  it('two writers racing on one task: each retries, no event is lost', async () => {
    await a.create(task('race'), 'alice');
    await a.append('race', 1, status('TASK_STATE_WORKING'));
    const write = async (store: PostgresTaskStore, text: string) => {
      for (;;) {
        const current = await store.get('race');
        try {
          return await store.append('race', current?.version ?? 0, {
            kind: 'artifact',
            artifact: { artifactId: text, parts: [{ text }] },
          });
        } catch (error) {
          if (!(error instanceof ConcurrentModificationError)) throw error;
        }
      }
    };
    const writes = [];
    for (let i = 0; i < 20; i++) writes.push(write(i % 2 ? a : b, `w${i}`));
    const records = await Promise.all(writes);
    expect(new Set(records.map((r) => r.seq)).size).toBe(20);
    const stored = await a.get('race');
    expect(stored?.version).toBe(22);
    expect(stored?.task.artifacts?.map((x) => x.artifactId).sort()).toEqual(
      records.map((r) => (r.event as { artifact: { artifactId: string } }).artifact.artifactId).sort(),
    );
  });

  it('lists newest status first with cursors and the in-memory filters', async () => {
    const owner = 'lister';
    for (const [id, ctx] of [
      ['l1', 'c1'],
      ['l2', 'c2'],
      ['l3', 'c1'],
    ] as const)
      await a.create(task(id, ctx), owner);
    await a.append('l1', 1, status('TASK_STATE_WORKING')); // l1 becomes the newest
    const all = await b.list(owner, { pageSize: 2 });
    expect(all.tasks.map((t) => t.id)).toEqual(['l1', 'l3']);
    expect(all.totalSize).toBe(3);
    const next = await b.list(owner, { pageSize: 2, pageToken: all.nextPageToken });
    expect(next.tasks.map((t) => t.id)).toEqual(['l2']);
    expect(next.nextPageToken).toBe('');
    expect((await b.list(owner, { pageSize: 10, contextId: 'c1' })).tasks.map((t) => t.id)).toEqual(['l1', 'l3']);
    const working = await b.list(owner, { pageSize: 10, status: 'TASK_STATE_WORKING' });
    expect(working.tasks.map((t) => t.id)).toEqual(['l1']);
    const l1 = await b.get('l1');
    const after = await b.list(owner, { pageSize: 10, statusTimestampAfter: l1?.task.status.timestamp });
    expect(after.tasks.map((t) => t.id)).toEqual(['l1']);
    expect(all.tasks[0]?.history).toBeDefined();
    for (const bad of ['nope', 'dDox', Buffer.from('pg:-1').toString('base64url'), '']) {
      if (bad === '') continue;
      await expect(b.list(owner, { pageSize: 2, pageToken: bad })).rejects.toBeInstanceOf(InvalidPageTokenError);
    }
  });

  it('a subscriber on another instance sees every event once, in order, and ends at the terminal state', async () => {
    await a.create(task('sub'), 'alice');
    const received: TaskEventRecord[] = [];
    const done = (async () => {
      for await (const record of b.subscribe('sub', 1)) received.push(record);
    })();
    let version = 1;
    for (let i = 0; i < 30; i++) {
      version = (
        await a.append('sub', version, {
          kind: 'artifact',
          artifact: { artifactId: 'a', parts: [{ text: odd(i) }] },
          append: i > 0,
        })
      ).seq;
    }
    await a.append('sub', version, status('TASK_STATE_COMPLETED'));
    await done;
    expect(received.map((r) => r.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 2));
    // Text that JSON, SQL arrays and NOTIFY payloads escape (quotes, backslashes, NUL, astral) arrives unchanged.
    const texts = received.flatMap((r) => (r.event.kind === 'artifact' ? [r.event.artifact.parts[0]] : []));
    expect(texts).toEqual(Array.from({ length: 30 }, (_, i) => ({ text: odd(i) })));
    expect(received.at(-1)?.state).toBe('TASK_STATE_COMPLETED');
    expect(b.subscriptionCount).toBe(0);
  });

  it('a subscriber starting from a fresh read takes NOTIFY-carried records, no log read, gap-free under appends', async () => {
    // A reader without the poll: any log read would be the subscription's own.
    const c = await PostgresTaskStore.connect({ connection: db.url, pollIntervalMs: 600_000, onError: () => {} });
    try {
      let logReads = 0;
      const query = c.pool.query.bind(c.pool) as (...args: unknown[]) => unknown;
      (c.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        if (String(args[0]).includes('LEFT JOIN a2a_task_events')) logReads++;
        return query(...args);
      };
      await a.create(task('primed'), 'alice');
      let version = (await a.append('primed', 1, status('TASK_STATE_WORKING'))).seq;
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const writer = (async () => {
        for (let i = 0; i < 60; i++) {
          const chunk = { kind: 'artifact' as const, artifact: { artifactId: 'a', parts: [{ text: `${i}` }] } };
          version = (await a.append('primed', version, chunk)).seq;
          await pause(2);
        }
        return (await a.append('primed', version, status('TASK_STATE_COMPLETED'))).seq;
      })();
      const followers: Promise<{ from: number; seen: number[] }>[] = [];
      for (let k = 0; k < 10; k++) {
        await pause(8);
        const from = (await c.get('primed', 'alice'))?.version ?? 0;
        // Subscribes in the turn its read resolved, as the engine does.
        followers.push(
          (async () => {
            const seen: number[] = [];
            for await (const record of c.subscribe('primed', from)) seen.push(record.seq);
            return { from, seen };
          })(),
        );
      }
      const last = await writer;
      for (const { from, seen } of await Promise.all(followers)) {
        expect(seen).toEqual(Array.from({ length: last - from }, (_, i) => from + 1 + i));
      }
      expect(logReads).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('a subscription to an unknown task ends; an aborted one releases itself', async () => {
    const none: TaskEventRecord[] = [];
    for await (const r of b.subscribe('missing', 0)) none.push(r);
    expect(none).toEqual([]);
    await a.create(task('abort'), 'alice');
    const controller = new AbortController();
    const iterator = b.subscribe('abort', 1, controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    controller.abort();
    expect((await pending).done).toBe(true);
    expect(b.subscriptionCount).toBe(0);
    // Closed by return() while a next() waits: how the engine ends a stream whose client left.
    const closing = b.subscribe('abort', 1)[Symbol.asyncIterator]();
    const waiting = closing.next();
    await closing.return?.();
    expect((await waiting).done).toBe(true);
    expect(b.subscriptionCount).toBe(0);
  });

  it('stores push configs with a durable delivery cursor that only moves forward', async () => {
    await a.create(task('push'), 'alice');
    await a.append('push', 1, status('TASK_STATE_WORKING'));
    const config = { taskId: 'push', id: 'c1', url: 'https://example.com/hook' };
    await a.savePushConfig(config);
    expect(await b.getPushConfig('push', 'c1')).toEqual(config);
    expect(await b.listPushConfigs('push')).toEqual([config]);
    const cursor = await b.pool.query("SELECT last_delivered_seq FROM a2a_push_configs WHERE task_id = 'push'");
    expect(Number(cursor.rows[0].last_delivered_seq)).toBe(2); // starts at the version the config was saved at
    expect(await b.deliveryState.get('push', 'c1')).toBeUndefined();
    await a.append('push', 2, status('TASK_STATE_COMPLETED'));
    expect(await b.pendingPushTasks()).toContain('push');
    await b.deliveryState.set('push', 'c1', { lastDeliveredSeq: 3, health: 'active', consecutiveFailures: 0 });
    await a.deliveryState.set('push', 'c1', {
      lastDeliveredSeq: 2,
      health: 'failing',
      consecutiveFailures: 1,
      lastError: '500',
    });
    expect(await b.deliveryState.get('push', 'c1')).toEqual({
      lastDeliveredSeq: 3,
      health: 'failing',
      consecutiveFailures: 1,
      lastError: '500',
    });
    expect(await b.pendingPushTasks()).not.toContain('push');
    await expect(a.savePushConfig({ ...config, taskId: 'nope' })).rejects.toThrow(/does not exist/);
    await b.deletePushConfig('push', 'c1');
    await b.deletePushConfig('push', 'c1');
    expect(await a.listPushConfigs('push')).toEqual([]);
  });

  it('a database that is down at start-up gives a clear error', async () => {
    const started = Date.now();
    await expect(PostgresTaskStore.connect({ connection: 'postgresql://a2a@127.0.0.1:1/postgres' })).rejects.toThrow(
      /cannot connect to PostgreSQL at 127\.0\.0\.1:1/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a lost connection is an A2A Unavailable error (503), not an internal one', async () => {
    const down = new PostgresTaskStore({ connection: 'postgresql://a2a@127.0.0.1:1/postgres', onError: () => {} });
    await expect(down.get('x')).rejects.toMatchObject({ type: 'Unavailable' });
    await down.close();
  });
});

describe('text keys', () => {
  it('escape NUL and backslash one-to-one', async () => {
    const { fromKey, toKey } = await import('../src/text-key.js');
    for (const value of ['plain', 'tenant\u0000user', 'a\\0b', '\\\u0000\\', '']) {
      expect(toKey(value)).not.toContain('\u0000');
      expect(fromKey(toKey(value))).toBe(value);
    }
    expect(toKey('a\\0b')).not.toBe(toKey('a\u0000b'));
  });
});
