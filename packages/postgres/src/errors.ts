import { A2AError } from '@a2a/core';
import type { Pool } from 'pg';

// SQLSTATE classes and codes that mean "the database is not reachable right now", not "the request is wrong".
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/** True for errors of a lost or refused database connection (the request may succeed later). */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code))) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable/i.test(
    error.message,
  );
}

/** Connection failures become A2A `Unavailable` (HTTP 503, JSON-RPC -32603); other errors pass through. */
export function storeError(error: unknown): unknown {
  if (!isConnectionError(error)) return error;
  return new A2AError('Unavailable', 'The task store is temporarily unavailable; retry later', { cause: error });
}

/** A start-up error that names the server it tried. */
export function connectionError(error: unknown, pool: Pool): Error {
  const options =
    (pool as unknown as { options?: { host?: string; port?: number; connectionString?: string } }).options ?? {};
  let where = `${options.host ?? 'localhost'}:${options.port ?? 5432}`;
  if (options.connectionString) where = describeConnectionString(options.connectionString);
  const reason =
    error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return new Error(`@a2a/postgres: cannot connect to PostgreSQL at ${where}: ${reason}`, { cause: error });
}

/**
 * Where a connection string points, for an error message: `host:port/database` of a `postgresql://` URL, else the
 * string itself (its password hidden) and what a URL looks like. `localhost:5432/agent` parses as a URL of scheme
 * `localhost:`, which read as one gave `:54325432/agent`.
 */
function describeConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.protocol === 'postgresql:' || url.protocol === 'postgres:') {
      return `${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}`;
    }
  } catch {}
  if (connectionString.startsWith('/')) return connectionString; // a socket directory
  const shown = connectionString.replace(/:[^:@/]*@/, ':***@');
  return `'${shown}' (not a URL of the form postgresql://user:password@host:5432/database)`;
}
