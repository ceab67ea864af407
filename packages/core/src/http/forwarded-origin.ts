/**
 * The origin a client used, from `X-Forwarded-Proto` / `X-Forwarded-Host` (the first value of each), for hosts that
 * hand the handler another URL than the client's (Next.js's `next start`: `localhost` and its own port) or sit
 * behind a proxy. Only for a `trustProxy` handler: otherwise any client could choose the host its card names, and a
 * shared cache could keep that card for others. `undefined` when neither header is there or they do not make an
 * http(s) origin (a path, credentials or a bad port in the host).
 */
export function forwardedOrigin(headers: Headers, own: string): string | undefined {
  const first = (name: string) => headers.get(name)?.split(',', 1)[0]?.trim() || undefined;
  const proto = first('x-forwarded-proto')?.toLowerCase();
  const host = first('x-forwarded-host');
  if (proto === undefined && host === undefined) return undefined;
  const ownUrl = new URL(own);
  const scheme = proto ?? ownUrl.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  const claimed = host ?? ownUrl.host;
  let parsed: URL;
  try {
    parsed = new URL(`${scheme}://${claimed}`);
  } catch {
    return undefined;
  }
  // `new URL` drops a default port and lowercases; anything it had to read differently (`a/b`, `u@h`) is refused.
  const plain = parsed.pathname === '/' && !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
  const sameHost = parsed.hostname === claimed.toLowerCase().replace(/:\d*$/, '');
  return plain && sameHost ? parsed.origin : undefined;
}
