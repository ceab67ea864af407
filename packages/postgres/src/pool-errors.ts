import type pg from 'pg';

const guarded = new WeakSet<pg.Pool>();

/**
 * A lost server connection (restart, failover, an administrator's kill) must never crash the process. pg emits
 * `error` on a client whose connection breaks, and an `error` event nobody listens to throws. pg-pool listens only
 * while a client is idle: a checked-out client (a transaction, a migration) has no listener, even right after its
 * query failed with the same error. So every client of the pool gets one: the failed statement reports the problem,
 * and the pool discards the broken client when it is released. Idempotent.
 */
export function guardPoolErrors(pool: pg.Pool): void {
  if (guarded.has(pool)) return;
  guarded.add(pool);
  pool.on('error', ignore); // idle clients
  pool.on('connect', (client) => void client.on('error', ignore)); // checked-out clients
}

const ignore = () => {};
