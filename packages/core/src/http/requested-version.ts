import type { RequestUrl } from './request-url.js';

/** `A2A-Version` from the header or the query, as Major.Minor; `undefined` when absent or empty. */
export function requestedVersion(request: Request, url: RequestUrl): string | undefined {
  const raw = request.headers.get('a2a-version') ?? (url.search ? url.searchParams.get('A2A-Version') : null) ?? '';
  // The usual values as they are: no match array and no new string per request (issue 39).
  if (raw === '1.0' || raw === '0.3') return raw;
  if (raw.trim() === '') return undefined;
  const match = /^\s*v?(\d+)\.(\d+)/.exec(raw);
  return match ? `${Number(match[1])}.${Number(match[2])}` : raw.trim();
}
