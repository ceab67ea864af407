import { type Listening, listen } from '@a2a/adapter-testsuite';
import { createA2AHandler, newTask } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { message, rpc } from '@a2a/store-testsuite/cluster';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresExecutionCoordinator, PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

/** Every statement the store's pool runs, classified by what it does. */
function countQueries(pool: pg.Pool): string[] {
  const seen: string[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const first = args[0] as string | { text: string };
    const text = typeof first === 'string' ? first : first.text;
    seen.push(
      text.includes('a2a_execution_leases') && text.includes('a2a_task_events')
        ? 'write batch'
        : text.includes('pg_notify')
          ? 'notify'
          : text.trim().split(/\s+/).slice(0, 4).join(' '),
    );
    return query(...args);
  };
  return seen;
}

describe.runIf(hasDatabase)('round trips per SendMessage', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let store: PostgresTaskStore;
  let coordinator: PostgresExecutionCoordinator;
  let server: Listening | undefined;
  let url: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    // Lease writes wait long for a task write to ride with (timing-free counts below).
    store = await PostgresTaskStore.connect({
      connection: pool,
      onError: () => {},
      batching: { leaseDelayMs: 60_000 },
    });
    coordinator = new PostgresExecutionCoordinator({ store, onError: () => {} });
    const a2a = createA2AHandler({
      agentCard: {
        name: 'round trips',
        description: 'counts statements',
        version: '1.0.0',
        skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      },
      executor: {
        async execute(ctx) {
          await ctx.working();
          await ctx.complete('ok');
        },
      },
      taskStore: store,
      coordinator,
    });
    server = await listen(createNodeHandler(a2a));
    url = server.url;
  });
  afterAll(async () => {
    await server?.close();
    coordinator?.close();
    await store?.close();
    await pool?.end();
    await db?.drop();
  });

  it('a blocking SendMessage with leases: two write statements and one wake-up, no read', async () => {
    const queries = countQueries(pool);
    const n = 5;
    for (let i = 0; i < n; i++) {
      const { body } = await rpc(url, 'SendMessage', { message: message('hi') });
      expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
    await store.writes.flush(); // the last lease release, which had nothing to ride with
    const { rows: leases } = await store.pool.query('SELECT count(*)::int AS n FROM a2a_execution_leases');
    expect(leases[0].n).toBe(0);
    const count = (kind: string) => queries.filter((q) => q === kind).length;
    // Task + first event + lease in one statement, the final status in another; releases ride along (the last alone).
    expect(count('write batch')).toBeLessThanOrEqual(2 * n + 1);
    // The final status's wake-up for subscribers elsewhere, apart from the write (see NOTIFY_SQL).
    expect(count('notify')).toBeLessThanOrEqual(n);
    // Nothing else: the answer is the execution's own last write, not read back.
    expect(queries.filter((q) => q !== 'write batch' && q !== 'notify' && !q.startsWith('SELECT count(*)'))).toEqual(
      [],
    );
    const { rows } = await store.pool.query('SELECT seq, kind, state FROM a2a_task_events ORDER BY task_id, seq');
    expect(rows).toHaveLength(2 * n); // WORKING (seq 2) and COMPLETED (seq 3) of each task: the log is whole
  });

  it('concurrent writes share statements; a write the database refuses fails alone', async () => {
    const queries = countQueries(pool);
    const tasks = Array.from({ length: 20 }, (_, i) =>
      newTask(`batch-${i}`, 'ctx', { messageId: `m${i}`, role: 'ROLE_USER', parts: [{ text: 'x' }] }, 'now'),
    );
    const bad = newTask(
      'batch-bad',
      'ctx',
      { messageId: 'mb', role: 'ROLE_USER', parts: [{ text: 'x' }] },
      'no\u0000w',
    );
    const results = await Promise.allSettled([...tasks, bad].map((task) => store.create(task, 'owner')));
    expect(results.slice(0, 20).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results[20]?.status).toBe('rejected');
    expect(await store.get('batch-bad')).toBeUndefined();
    // 21 creates: a few shared statements, then (one refused) write by write.
    expect(queries.filter((q) => q === 'write batch').length).toBeLessThan(21 + 5);
    const duplicate = await Promise.allSettled([store.create(tasks[0] as never, 'owner')]);
    expect(duplicate[0]?.status).toBe('rejected');
  });

  it('createWith stores the task and its first event in one commit, or neither', async () => {
    const task = newTask('with-1', 'ctx', { messageId: 'w1', role: 'ROLE_USER', parts: [{ text: 'x' }] }, 't0');
    const working = { kind: 'status' as const, status: { state: 'TASK_STATE_WORKING' as const, timestamp: 't1' } };
    const { stored, record } = await store.createWith(task, 'owner', working);
    expect(stored.version).toBe(1);
    expect(record.seq).toBe(2);
    expect((await store.get('with-1'))?.version).toBe(2);
    expect((await store.readEvents('with-1', 1)).map((r) => [r.seq, r.state])).toEqual([[2, 'TASK_STATE_WORKING']]);
    await expect(store.createWith(task, 'owner', working)).rejects.toThrow(/already exists/);
    expect(await store.readEvents('with-1', 1)).toHaveLength(1);
  });

  it('a subscriber on another instance takes the event from its NOTIFY, without reading the log', async () => {
    const other = await PostgresTaskStore.connect({ connection: db.url, pollIntervalMs: 60_000, onError: () => {} });
    try {
      const task = newTask('cross-1', 'ctx', { messageId: 'c1', role: 'ROLE_USER', parts: [{ text: 'x' }] }, 't0');
      await store.create(task, 'owner');
      const events = other.subscribe('cross-1', 1)[Symbol.asyncIterator]();
      const status = (state: 'TASK_STATE_WORKING', timestamp: string) => ({
        kind: 'status' as const,
        status: { state, timestamp },
      });
      await store.append('cross-1', 1, status('TASK_STATE_WORKING', 't1'));
      expect((await events.next()).value).toMatchObject({ seq: 2 }); // read from the log or taken from the NOTIFY
      const queries = countQueries(other.pool);
      const next = events.next(); // waiting now
      await store.append('cross-1', 2, status('TASK_STATE_WORKING', 't2'));
      expect((await next).value).toMatchObject({ taskId: 'cross-1', seq: 3, state: 'TASK_STATE_WORKING' });
      expect(queries).toEqual([]);
      await events.return?.();
    } finally {
      await other.close();
    }
  });
});
