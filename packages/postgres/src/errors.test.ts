import type { Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { connectionError } from './errors.js';

const pool = (options: object) => ({ options }) as unknown as Pool;
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('connectionError', () => {
  it('names host, port and database of a postgresql:// URL, never its password', () => {
    const message = connectionError(
      refused,
      pool({ connectionString: 'postgresql://u:secret@db.internal:6543/agent' }),
    ).message;
    expect(message).toBe(
      '@a2a/postgres: cannot connect to PostgreSQL at db.internal:6543/agent: connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(connectionError(refused, pool({ host: 'h', port: 1 })).message).toContain('at h:1:');
  });

  it('says what a URL looks like when the string has no scheme, hiding a password', () => {
    const message = connectionError(refused, pool({ connectionString: 'localhost:5432/agent' })).message;
    expect(message).toContain("at 'localhost:5432/agent' (not a URL of the form postgresql://");
    expect(message).not.toContain('54325432');
    const withPassword = connectionError(refused, pool({ connectionString: 'u:secret@localhost/agent' })).message;
    expect(withPassword).toContain("'u:***@localhost/agent'");
    expect(withPassword).not.toContain('secret');
  });
});
