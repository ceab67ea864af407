/** The header in which the page lists the headers the user typed (Authorization and custom ones), comma-separated. */
export const USER_HEADERS = 'x-playground-headers';

/** The A2A headers a call carries besides the user's own. */
const A2A_HEADERS = ['accept', 'a2a-version', 'a2a-extensions', 'last-event-id'];

// Never forwarded, even when listed: the connection, the playground site's cookies and origin, proxy and forwarding
// headers, and the ones the proxy sets itself.
const NEVER = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'content-length',
  'content-type',
  'cookie',
  'origin',
  'referer',
  'accept-encoding',
  'forwarded',
  'via',
  'x-real-ip',
  'x-http-method-override',
]);
const NEVER_PREFIXES = ['proxy-', 'sec-', 'x-forwarded-', 'x-playground-'];
const MAX_USER_HEADERS = 32;

/** The JSON content types A2A's bindings send (`application/json`, `application/a2a+json`, with parameters). */
export function isA2AContentType(value: string | null): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || type === 'application/a2a+json';
}

/**
 * The headers a proxied call sends to the agent (`all`): the A2A ones, the content type, and the user's headers the
 * page listed in {@link USER_HEADERS} (`user`, also what a fetch of the agent's card carries). Everything else the
 * browser sent (cookies, a Basic login cached for the playground's site, …) stays home. `undefined` for a list naming
 * too many headers.
 */
export function forwardedHeaders(request: Request, withBody: boolean): { all: Headers; user: Headers } | undefined {
  const names = (request.headers.get(USER_HEADERS) ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  if (names.length > MAX_USER_HEADERS) return undefined;
  const all = new Headers();
  const user = new Headers();
  for (const name of A2A_HEADERS) copy(request, all, name);
  if (withBody) copy(request, all, 'content-type');
  for (const name of names.filter(forwardable)) {
    copy(request, all, name);
    copy(request, user, name);
  }
  return { all, user };
}

/** Only the user's listed headers, for a card fetch (`{ url, headers }` of `/api/card`). */
export function userHeaders(record: Record<string, string>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(record).slice(0, MAX_USER_HEADERS)) {
    const n = name.toLowerCase();
    if (!forwardable(n) || A2A_HEADERS.includes(n)) continue;
    try {
      out.set(n, value);
    } catch {
      // not a valid header name or value: dropped
    }
  }
  return out;
}

const forwardable = (name: string) => !NEVER.has(name) && !NEVER_PREFIXES.some((p) => name.startsWith(p));

function copy(from: Request, to: Headers, name: string): void {
  const value = from.headers.get(name);
  if (value !== null) to.set(name, value);
}
