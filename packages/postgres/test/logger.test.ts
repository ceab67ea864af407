import type { A2ALogger } from '@a2a/core';
import { eventually } from '@a2a/store-testsuite/cluster';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTaskStoreFromEnv, type PostgresExecutionCoordinator, PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

/** A logger that keeps its calls. */
function recordingLogger() {
  const errors: { fields: Record<string, unknown>; message: string | undefined }[] = [];
  const logger: A2ALogger = {
    error: (fields, message) => void errors.push({ fields, message }),
    warn: () => {},
  };
  return { logger, errors };
}

// The background jobs (LISTEN connection, retention sweep, lease heartbeat) have no caller to throw to: their errors go to the
// app's logger, tagged with the component, and never to the console when a logger is given.
describe.runIf(hasDatabase)('background errors go to the logger', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  const consoleError = vi.spyOn(console, 'error');

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterEach(() => consoleError.mockClear());
  afterAll(async () => {
    consoleError.mockRestore();
    await admin?.end();
    await db?.drop();
  });

  it('a lost LISTEN connection: one error entry with err and component, nothing on console.error', async () => {
    const app = 'a2a-logger-listen';
    const { logger, errors } = recordingLogger();
    const store = await PostgresTaskStore.connect({
      connection: { connectionString: db.url, application_name: app },
      logger,
    });
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'",
        [app],
      );
      await eventually(() => errors.length > 0);
      expect(errors[0]?.fields).toMatchObject({ component: 'a2a/postgres', err: expect.any(Error) });
      expect(errors[0]?.message).toMatch(/LISTEN connection lost/);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      await store.close();
    }
  });

  it('onError takes precedence over the logger', async () => {
    const app = 'a2a-logger-on-error';
    const { logger, errors } = recordingLogger();
    const hooked: unknown[] = [];
    const store = await PostgresTaskStore.connect({
      connection: { connectionString: db.url, application_name: app },
      logger,
      onError: (e) => hooked.push(e),
    });
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [app]);
      await eventually(() => hooked.length > 0);
      expect(errors).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a failed retention sweep: logged with the component', async () => {
    const { logger, errors } = recordingLogger();
    const store = await PostgresTaskStore.connect({
      connection: db.url,
      logger,
      retention: { finishedTaskTtlMs: 1, intervalMs: 20 },
    });
    try {
      await admin.query('ALTER TABLE a2a_tasks RENAME TO a2a_tasks_away');
      await eventually(() => errors.some((e) => e.message === 'retention sweep failed'));
      expect(errors[0]?.fields).toMatchObject({ component: 'a2a/postgres', err: expect.any(Error) });
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      await admin.query('ALTER TABLE a2a_tasks_away RENAME TO a2a_tasks');
      await store.close();
    }
  });

  it('a failed lease heartbeat (createTaskStoreFromEnv passes the logger on): logged with the component', async () => {
    const { logger, errors } = recordingLogger();
    const setup = await createTaskStoreFromEnv({ A2A_DATABASE_URL: db.url, A2A_LEASE_TTL_MS: '600000' }, { logger });
    const coordinator = setup.coordinator as PostgresExecutionCoordinator;
    try {
      // Not an outage (that one is silent: the heartbeat just retries) but a statement the server refuses.
      await admin.query('ALTER TABLE a2a_execution_leases RENAME TO a2a_execution_leases_away');
      await coordinator.tick();
      expect(errors).toHaveLength(1);
      expect(errors[0]?.fields).toMatchObject({ component: 'a2a/postgres', err: expect.any(Error) });
      expect(errors[0]?.message).toMatch(/lease heartbeat failed/);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      await admin.query('ALTER TABLE a2a_execution_leases_away RENAME TO a2a_execution_leases');
      await setup.close();
    }
  });
});
