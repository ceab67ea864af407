import { describePushConfigStore, describeTaskStore } from '@a2a/store-testsuite';
import { afterAll, beforeAll, describe } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

// The published store contract, unchanged, on a database of its own. Every store the suite asks for is a separate
// instance (its own pool, LISTEN connection and caches) on that database, so the peer is a true second instance.
describe.runIf(hasDatabase)('@a2a/postgres', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const url = () => {
    if (!db) throw new Error('no test database');
    return db.url;
  };
  const open = (finishedTaskTtlMs: number) =>
    PostgresTaskStore.connect({
      connection: url(),
      onError: () => {},
      // The sweep runs at least as often as the TTL, so a finished task goes within about twice its TTL.
      retention: { finishedTaskTtlMs, intervalMs: Math.min(finishedTaskTtlMs, 60_000) },
    });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  describeTaskStore('PostgresTaskStore', {
    create: ({ finishedTaskTtlMs }) => open(finishedTaskTtlMs),
    createPeer: (_store, { finishedTaskTtlMs }) => open(finishedTaskTtlMs),
    close: (store) => store.close(),
  });

  describePushConfigStore('PostgresTaskStore', {
    create: () => open(60 * 60 * 1000),
    createPeer: () => open(60 * 60 * 1000),
    close: (store) => store.close(),
  });
});
