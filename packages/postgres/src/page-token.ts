import { InvalidPageTokenError } from '@a2a/core';

// Opaque ListTasks cursors: base64url("pg:<list_seq>"). Only tokens this store issued decode.

export const encodeCursor = (listSeq: number): string => Buffer.from(`pg:${listSeq}`).toString('base64url');

export function decodeCursor(token: string): number {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(token)) throw new InvalidPageTokenError();
  const match = /^pg:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match) throw new InvalidPageTokenError();
  return Number(match[1]);
}
