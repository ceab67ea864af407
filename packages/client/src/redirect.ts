import { invalidResponse } from './errors.js';
import type { TransportOptions } from './options.js';

const MAX_REDIRECTS = 5;

/**
 * Where a redirect (fetched with `redirect: 'manual'`) may be followed to, or `undefined` when `response` is no
 * redirect. Only within the origin asked: a request re-sent elsewhere would carry its body and headers (an API key)
 * to a host the caller never chose. POST is followed only on 307/308, which keep the method and body.
 */
export function redirectTarget(
  response: Response,
  url: string,
  method: string,
  hops: number,
  policy: TransportOptions['redirects'] = 'same-origin',
): string | undefined {
  // Browsers hide a manual redirect's status and Location (an opaque response): it cannot be checked, so not followed.
  if (response.type === 'opaqueredirect') throw invalidResponse(`${url} answered a redirect (not followed)`);
  const location = response.headers.get('location');
  if (!location || ![301, 302, 303, 307, 308].includes(response.status)) return undefined;
  const target = new URL(location, url);
  const refuse = (why: string) => invalidResponse(`${url} redirected to ${target.href}: ${why}, not followed`);
  if (policy === 'none') throw refuse('redirects are off');
  if (target.origin !== new URL(url).origin) throw refuse('another origin');
  if (response.status < 307 && method !== 'GET') throw refuse(`HTTP ${response.status} would turn ${method} to GET`);
  if (hops >= MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects`);
  return target.href;
}
