import type { IncomingMessage } from 'node:http';
import { A2AError } from '../errors.js';
import { parseRequestUrl } from '../http/request-url.js';

/** Methods Fetch's `Request` refuses (it throws on them); the bridge serves them through its view, without a body. */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The refusal a bridge hands the handler (`ToWebRequestOptions.refusal`) for a request it cannot serve as sent: a Host
 * header that names no host, a path the framework's router cannot decode (`%zz`), a target that makes no URL
 * (`OPTIONS *`). The handler answers it (400, in its wire's error shape) on its own paths and runs nothing.
 */
export function requestRefusal(what: 'host' | 'path' | 'target'): A2AError {
  return new A2AError('BadRequest', `Invalid request: ${REFUSED[what]}`);
}

const REFUSED = {
  host: 'the Host header is not a valid host',
  path: 'the request path is not valid',
  target: 'the request target is not valid',
} as const;

export interface RequestTarget {
  url: string;
  /** Set when the Host (or the whole URL) could not be parsed: the handler answers it with 400 on its paths. */
  refusal?: A2AError;
}

/**
 * The request's absolute URL, checked: a Host header such as `a b`, `[::1`, `x:99999` or `a%zz` makes the URL
 * unparsable, which `new Request()` / `new URL()` would throw on deep in the handler (a 500). Such a request gets a
 * stand-in host, so it can still be routed, and a refusal the handler answers with 400.
 */
export function requestTarget(url: string): RequestTarget {
  // The last answer that parsed, as it is: {@link joinRequestUrl} hands the same string again (issue 39).
  if (url === lastTarget?.url) return lastTarget;
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  const end = slash < 0 ? url.length : slash;
  // The last scheme and authority that parsed, not parsed again: a server's requests mostly share one (the parse
  // and its strings cost ~0.5 KB per request, issue 39, docs/performance.md "Per request").
  if (end === parsedAuthority.length && url.startsWith(parsedAuthority)) return kept(url);
  // Only the authority needs checking (Node's parser already refused bad request targets); `/` keeps the cheap path.
  if (parses(slash < 0 ? `${url}/` : `${url.slice(0, slash)}/`)) {
    parsedAuthority = url.slice(0, end);
    return kept(url);
  }
  const path = slash < 0 ? '/' : url.slice(slash);
  const standIn = parses(`http://invalid.invalid${path}`) ? `http://invalid.invalid${path}` : 'http://invalid.invalid/';
  return { url: standIn, refusal: requestRefusal('host') };
}

/** The scheme and authority {@link requestTarget} last found to parse (`''`: none yet; no URL is that short). */
let parsedAuthority = '';
/** {@link requestTarget}'s last answer without a refusal (never changed: its callers only read it). */
let lastTarget: RequestTarget | undefined;

function kept(url: string): RequestTarget {
  lastTarget = { url };
  return lastTarget;
}

function parses(url: string): boolean {
  try {
    parseRequestUrl(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * `proto://host/path` from a request's parts, for the bridges and adapters that build the URL they pass as `url`. A
 * Host that is no authority (`a/b`, `u@h`, `x?y`) would move into the URL's path, userinfo or query and be routed
 * as such: escaped, it leaves the authority unparsable, and {@link requestTarget} refuses the request.
 */
export function joinRequestUrl(proto: string, host: string, path: string): string {
  // The last URL joined, handed again for the same parts: a server's requests mostly share one, and the joined string
  // (with the copy that flattens it) cost ~0.1 KB per request (issue 39, docs/performance.md "Per request").
  if (joined && path === joined.path && host === joined.host && proto === joined.proto) return joined.url;
  const url = `${proto}://${NOT_IN_HOST.test(host) ? host.replace(NOT_IN_HOST_ALL, encodeURIComponent) : host}${path}`;
  joined = { proto, host, path, url };
  return url;
}

/** {@link joinRequestUrl}'s last parts and answer. */
let joined: { proto: string; host: string; path: string; url: string } | undefined;

const NOT_IN_HOST = /[/?#@\\]/;
const NOT_IN_HOST_ALL = new RegExp(NOT_IN_HOST.source, 'g');

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

/** Absolute URL of a Node request (from the Host header, or X-Forwarded-* with `trustProxy`). */
export function requestUrl(req: IncomingMessage, trustProxy: boolean): string {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const proto = (trustProxy && first(req.headers['x-forwarded-proto'])) || (encrypted ? 'https' : 'http');
  const host =
    (trustProxy && first(req.headers['x-forwarded-host'])) ||
    req.headers.host ||
    first(req.headers[':authority']) ||
    'localhost';
  // Connect-style mounts (Express, connect) strip the prefix from `req.url` and keep the full path in `originalUrl`.
  return joinRequestUrl(proto, host, (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/');
}
