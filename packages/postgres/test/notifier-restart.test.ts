import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually } from '@a2a/store-testsuite/cluster';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { PostgresTaskStore } from '../src/postgres-task-store.js';
import { hasDatabase } from './db.js';

const script = fileURLToPath(new URL('../../../scripts/start-postgres.sh', import.meta.url));
const run = promisify(execFile);
const APP = 'a2a-notifier-restart';
const INSTANCES = 3;
const OUTAGE_MS = 5000;

/** Its own throwaway cluster: stopping it must not disturb the other test files. */
describe.runIf(hasDatabase)('LISTEN connections across a PostgreSQL restart', () => {
  let state: string;
  let url: string;
  const stores: PostgresTaskStore[] = [];
  const received: string[][] = [];
  const errors: unknown[] = [];
  const pgctl = async (command: 'start' | 'stop') =>
    (
      await run('bash', [script, command], {
        env: { ...process.env, A2A_PG_STATE: state, A2A_PG_STOP_MODE: 'immediate' },
      })
    ).stdout.trim();

  /** This app's connections on the server: all of them, and those that LISTEN (their last statement). */
  const connections = async () => {
    const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ total: number; listening: number }>(
        `SELECT count(*)::int AS total, (count(*) FILTER (WHERE query LIKE 'LISTEN %'))::int AS listening
           FROM pg_stat_activity WHERE application_name = $1`,
        [APP],
      );
      return rows[0] as { total: number; listening: number };
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    state = await mkdtemp(join(tmpdir(), 'a2a-pg-notifier-'));
    url = await pgctl('start');
    for (let i = 0; i < INSTANCES; i++) {
      const store = new PostgresTaskStore({
        connection: { connectionString: url, application_name: APP },
        onError: (e) => errors.push(e),
      });
      const got: string[] = [];
      received.push(got);
      store.listen('restart_probe', (payload) => got.push(payload));
      if (i === 0) await migrate(store.pool);
      await store.start();
      stores.push(store);
    }
  }, 60_000);
  afterAll(async () => {
    for (const store of stores) await store.close();
    await pgctl('stop').catch(() => {});
    await rm(state, { recursive: true, force: true });
  });

  it('reconnects one LISTEN connection per instance: no multiplied attempts during the outage, none left over', async () => {
    await eventually(async () => (await connections()).listening === INSTANCES);
    const before = await connections();

    await pgctl('stop');
    // While the server is down, something on its port counts the connection attempts and drops each one.
    const port = Number(await readFile(join(state, 'port'), 'utf8'));
    const sockets = new Set<Socket>();
    let attempts = 0;
    const counter = createServer((socket) => {
      attempts++;
      sockets.add(socket);
      socket.on('error', () => {});
      socket.destroy();
    });
    await new Promise<void>((resolve) => counter.listen(port, '127.0.0.1', resolve));
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    await new Promise<void>((resolve) => counter.close(() => resolve()));
    await pgctl('start');

    // One attempt per backoff step: the shortest delays (100, 200, 400, 800, 1600, 2500 ms) fit at most 5 attempts in
    // 5 s per instance. A loop that forks on every failure made ~45 here, and left 72 LISTEN connections behind.
    expect(attempts).toBeLessThanOrEqual(INSTANCES * 8);

    // Back to one LISTEN connection per instance, and it stays so once every backoff has run out (5 s at most).
    await eventually(async () => (await connections()).listening === INSTANCES, 20_000);
    await new Promise((r) => setTimeout(r, 6000));
    const after = await connections();
    expect(after.listening).toBe(INSTANCES);
    expect(after.total).toBeLessThanOrEqual(before.total + INSTANCES); // at most a pooled client more each

    // Each instance hears a notification exactly once: no orphaned listener duplicates it.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`SELECT pg_notify('restart_probe', 'after')`);
    await admin.end();
    await eventually(() => received.every((got) => got.includes('after')));
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toEqual(Array.from({ length: INSTANCES }, () => ['after']));
    expect(stores.every((s) => (s as unknown as { notifier: { listening: boolean } }).notifier.listening)).toBe(true);
  }, 60_000);
});
