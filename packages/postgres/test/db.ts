import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The test database server: `A2A_TEST_DATABASE_URL` (set by `.ci/run` through scripts/start-postgres.sh). Under CI the
 * PostgreSQL tests must run: a missing URL fails loudly. Elsewhere they are skipped with a visible message.
 */
export const baseUrl = process.env.A2A_TEST_DATABASE_URL;
if (!baseUrl) {
  if (process.env.CI === 'true') {
    throw new Error('A2A_TEST_DATABASE_URL is not set under CI: start PostgreSQL with scripts/start-postgres.sh');
  }
  console.warn(
    '[@a2a/postgres] SKIPPING PostgreSQL tests: set A2A_TEST_DATABASE_URL (scripts/start-postgres.sh prints one)',
  );
}
export const hasDatabase = baseUrl !== undefined;

/** A fresh, empty database on the test server; `drop()` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!baseUrl) throw new Error('no test database');
  const name = `a2a_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL test server unreachable at ${baseUrl}: ${(error as Error).message}`, { cause: error });
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
