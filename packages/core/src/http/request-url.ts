/** The parts of a request URL the handler reads. */
export type RequestUrl = Pick<URL, 'origin' | 'pathname' | 'search' | 'searchParams'>;

/** A URL without query, fragment, credentials, default port, percent escapes or dot segments: parsing it is slicing. */
const PLAIN = /^(https?):\/\/([a-z0-9.-]+)(?::(\d{1,5}))?(\/[\w\-~!$&'()*+,;=:@./]*)$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
/** A host ending in a numeric label is an IPv4 address to the URL parser (`127.1`, `0x7f.1`): only canonical dotted quads pass. */
const NUMERIC_END = /(?:^|\.)(?:0x[0-9a-f]*|\d+)\.?$/;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const DOTTED_QUAD = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

class PlainUrl implements RequestUrl {
  readonly search = '';
  constructor(
    readonly origin: string,
    readonly pathname: string,
  ) {}
  get searchParams(): URLSearchParams {
    return new URLSearchParams();
  }
}

/**
 * The request URL's origin and path; `new URL()` (about 1–4 µs per request) only for URLs that need its
 * normalization. Both give the same answers for the URLs the fast path accepts.
 */
export function parseRequestUrl(href: string): RequestUrl {
  // The last plain URL's parts kept (immutable): a server's requests mostly share a few URLs, and the regular
  // expression's match and its substrings cost ~0.5 KB per request (issue 39, docs/performance.md "Per request").
  if (last !== undefined && href === last.href) return last.url;
  const match = PLAIN.exec(href);
  if (!match) return new URL(href);
  const [, scheme, host, port, path] = match as unknown as [string, string, string, string | undefined, string];
  const defaultPort = scheme === 'http' ? '80' : '443';
  const oddHost = (NUMERIC_END.test(host) && !DOTTED_QUAD.test(host)) || host.includes('xn--');
  if (oddHost || port === defaultPort || port?.startsWith('0') || Number(port) > 65535 || DOT_SEGMENT.test(path)) {
    return new URL(href);
  }
  const url = new PlainUrl(port === undefined ? `${scheme}://${host}` : `${scheme}://${host}:${port}`, path);
  last = { href, url };
  return url;
}

let last: { href: string; url: RequestUrl } | undefined;
