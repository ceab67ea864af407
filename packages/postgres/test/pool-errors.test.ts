import { eventually } from '@a2a/store-testsuite/cluster';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

/** migrate()'s advisory lock key (serializes instances that start together). */
const MIGRATION_LOCK = 0x0a2a_5157;

// A lost connection (here: pg_terminate_backend on our own sessions, as a server restart does to every session) must
// fail the statement, never the process: an unhandled 'error' event would kill this test worker.
describe.runIf(hasDatabase)('a lost connection on a checked-out pool client', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  const terminate = (app: string) =>
    admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [app]);

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await db?.drop();
  });

  it("the store's pool: the client is discarded, the process and the store carry on", async () => {
    const app = 'a2a-pool-errors-store';
    const store = await PostgresTaskStore.connect({
      connection: { connectionString: db.url, application_name: app },
      onError: () => {},
    });
    try {
      const client = await store.pool.connect();
      await client.query('SELECT 1');
      const ended = new Promise((resolve) => client.once('end', resolve));
      await terminate(app); // also the LISTEN connection: it reconnects by itself
      await ended;
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release();
      expect(await store.get('no-such-task')).toBeUndefined();
      await eventually(async () => {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'",
          [app],
        );
        return rows[0]?.n === 1;
      });
    } finally {
      await store.close();
    }
  });

  it('migrate(): a connection lost while it waits for the migration lock rejects it clearly', async () => {
    const app = 'a2a-pool-errors-migrate';
    const pool = new pg.Pool({ connectionString: db.url, application_name: app });
    await admin.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const migrating = migrate(pool);
      migrating.catch(() => {});
      await eventually(async () => {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [app],
        );
        return rows[0]?.n === 1;
      });
      await terminate(app);
      await expect(migrating).rejects.toThrow(/terminating connection/);
      // The pooled client emits its own 'error' once the socket closes: give it the time to.
      await eventually(() => pool.totalCount === 0);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      await pool.end();
    }
  });
});
