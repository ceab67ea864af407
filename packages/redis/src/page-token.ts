import { InvalidPageTokenError } from '@a2a/core';

// Opaque ListTasks cursors: base64url("rd:<list score>"). Only tokens this store issued decode.

export const encodeCursor = (score: number): string => Buffer.from(`rd:${score}`).toString('base64url');

export function decodeCursor(token: string): number {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(token)) throw new InvalidPageTokenError();
  const match = /^rd:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match) throw new InvalidPageTokenError();
  return Number(match[1]);
}
