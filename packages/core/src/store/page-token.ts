import { InvalidPageTokenError } from './task-store.js';

// Opaque cursor tokens: base64url("<kind>:<position>"). Only tokens this server issued decode.

export function encodePageToken(kind: string, position: number): string {
  return btoa(`${kind}:${position}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodePageToken(kind: string, token: string): number {
  let text: string;
  try {
    text = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw new InvalidPageTokenError();
  }
  const match = /^([a-z]+):(\d{1,15})$/.exec(text);
  if (!match || match[1] !== kind) throw new InvalidPageTokenError();
  return Number(match[2]);
}
