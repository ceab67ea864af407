import { readdir, readFile } from 'node:fs/promises';
import type { Pool, PoolClient } from 'pg';
import { connectionError } from './errors.js';
import { guardPoolErrors } from './pool-errors.js';

// The CommonJS build (scripts/build-cjs.mjs) rewrites import.meta.url to the CommonJS file's URL after compiling.
// biome-ignore lint/suspicious/noTsIgnore: import.meta is an error under module=CommonJS, which does not reach the output
// @ts-ignore
const HERE: string = import.meta.url;
/** `migrations/` at the package root: this file is one level below it in src/ and dist/, two in dist/cjs/. */
const MIGRATIONS_DIR = new URL(/\/dist\/cjs\/[^/]+$/.test(HERE) ? '../../migrations/' : '../migrations/', HERE);
/** Any fixed key: serializes instances that start together. */
const LOCK_KEY = 0x0a2a_5157;

/**
 * Applies the SQL files of `migrations/` that this database has not seen, in name order, each in its own
 * transaction. Safe to call from every instance at start-up (an advisory lock serializes them).
 * Throws a clear error when the database cannot be reached.
 */
export async function migrate(pool: Pool): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  guardPoolErrors(pool); // a restart during the migration fails it, never the process
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw connectionError(error, pool);
  }
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS a2a_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM a2a_migrations')).rows.map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(new URL(file, MIGRATIONS_DIR), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO a2a_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(file);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    client.release();
  }
  return applied;
}
