import { defineAdversarialSuite, nodeHarness } from '@a2a/adapter-testsuite';
import { describe } from 'vitest';
import { createTaskStoreFromEnv } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

// The generated adversarial suite (hostile input of every kind) through a real server whose task store, push config
// store and coordinator are PostgreSQL: never a 5xx, always an A2A error, and a refused request writes nothing through
// the store (its writes counted, ListTasks compared) — each configuration on a database of its own.
describe.runIf(hasDatabase)('@a2a/postgres', () => {
  defineAdversarialSuite(nodeHarness('node:http + PostgresTaskStore'), {
    stores: async () => {
      const db = await createTestDatabase();
      const setup = await createTaskStoreFromEnv({ A2A_DATABASE_URL: db.url });
      if (!setup.coordinator) throw new Error('no coordinator: the store is not PostgreSQL');
      return {
        taskStore: setup.taskStore,
        coordinator: setup.coordinator,
        close: async () => {
          await setup.close();
          await db.drop();
        },
      };
    },
  });
});
