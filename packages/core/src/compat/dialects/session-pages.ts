import { SessionsError } from './sessions-errors.js';

// `GET /sessions/{id}/messages` pages: `limit` (1..100, default 50) and a `cursor` naming the message a page starts
// after (next_cursor) or ends before (prev_cursor), so pages hold still while the session grows.

export const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

interface Cursor {
  after?: string;
  before?: string;
}

// Readable (`after:<id>`), yet opaque to clients: only a message of the session is accepted.
const encode = (cursor: Cursor): string =>
  cursor.after !== undefined ? `after:${cursor.after}` : `before:${cursor.before ?? ''}`;

function decode(token: string): Cursor {
  if (token.startsWith('after:')) return { after: token.slice('after:'.length) };
  if (token.startsWith('before:')) return { before: token.slice('before:'.length) };
  throw invalidCursor();
}

const invalidCursor = () =>
  new SessionsError('invalid_cursor', 400, 'cursor: not a cursor this server issued for this session', {
    fields: [{ field: 'cursor', description: 'not a cursor this server issued for this session' }],
  });

export function readLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_LIMIT;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    const description = `must be an integer from 1 to ${MAX_LIMIT}`;
    throw new SessionsError('invalid_request', 400, `limit: ${description}`, {
      fields: [{ field: 'limit', description }],
    });
  }
  return limit;
}

export interface Page<T> {
  items: T[];
  pagination: { next_cursor?: string; prev_cursor?: string };
}

/** One page of `items` (identified by `id`) for a cursor from an earlier page. */
export function page<T extends { id: string }>(items: readonly T[], cursorText: string | null, limit: number): Page<T> {
  let start = 0;
  let end = Math.min(items.length, limit);
  if (cursorText !== null && cursorText !== '') {
    const cursor = decode(cursorText);
    const at = items.findIndex((item) => item.id === (cursor.after ?? cursor.before));
    if (at < 0) throw invalidCursor();
    if (cursor.after !== undefined) {
      start = at + 1;
      end = Math.min(items.length, start + limit);
    } else {
      end = at;
      start = Math.max(0, end - limit);
    }
  }
  const slice = items.slice(start, end);
  const first = slice[0];
  const last = slice[slice.length - 1];
  return {
    items: slice,
    pagination: {
      ...(last && end < items.length && { next_cursor: encode({ after: last.id }) }),
      ...(first && start > 0 && { prev_cursor: encode({ before: first.id }) }),
    },
  };
}
