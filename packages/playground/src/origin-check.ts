import { hostnameOf } from './host-check.js';
import { json } from './limits.js';

/** The header the page sends on every API call; a cross-site form cannot send it, and fetch only after a preflight. */
export const API_HEADER = 'x-playground-api';

/**
 * Refuses an API call another site could have made: a browser sends `Origin` on every POST, and it must name the
 * origin the page is served from; a client without `Origin` (not a browser) must send {@link API_HEADER}.
 * The playground never answers a CORS preflight, so no other site can add that header.
 */
export function checkSameOrigin(request: Request): Response | undefined {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return refused(`a ${site} request`);
  if (origin === null) {
    return request.headers.has(API_HEADER) ? undefined : refused(`a request with neither Origin nor ${API_HEADER}`);
  }
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return refused(`Origin ${JSON.stringify(origin.slice(0, 100))}`);
  }
  const own = [request.headers.get('host'), new URL(request.url).host].flatMap((h) =>
    h === null ? [] : [`${hostnameOf(h)}:${portOf(h, from.protocol)}`],
  );
  const theirs = `${from.hostname}:${from.port || defaultPort(from.protocol)}`;
  return own.length > 0 && own.every((h) => h === theirs)
    ? undefined
    : refused(`Origin ${JSON.stringify(origin.slice(0, 100))}`);
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

function portOf(host: string, protocol: string): string {
  try {
    return new URL(`http://${host}`).port || defaultPort(protocol);
  } catch {
    return '';
  }
}

const refused = (what: string) =>
  json(403, { error: `Refused: the playground's API answers its own page only, not ${what}` });
