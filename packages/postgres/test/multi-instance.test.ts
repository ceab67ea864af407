import { fileURLToPath } from 'node:url';
import { describeMultiInstance } from '@a2a/store-testsuite/cluster';
import { describe } from 'vitest';
import { createTestDatabase, hasDatabase } from './db.js';

describe.runIf(hasDatabase)('@a2a/postgres', () => {
  describeMultiInstance('PostgreSQL database', {
    script: fileURLToPath(new URL('./fixtures/server.ts', import.meta.url)),
    backend: async () => {
      const db = await createTestDatabase();
      return { env: { A2A_DATABASE_URL: db.url }, release: db.drop };
    },
  });
});
