import { type Dialect, type DialectRoute, matchDialects } from '../compat/dialects/dialect.js';
import { V02_EXTENDED_CARD_PATH } from '../compat/legacy-routes.js';
import type { V03RestMatch, V03RestServer } from '../compat/v03-rest.js';
import { matchRest, type RestMatch } from '../http/rest.js';

export const LEGACY_CARD_PATH = '/.well-known/agent.json';

/** Where a handler's routes are, fixed when it is made (`createA2AHandler`'s options resolved). */
export interface RouteTable {
  /** '' or e.g. '/a2a': routes by the URL's own path, with the well-known documents also at the root. */
  basePath: string;
  /** The GET paths served at the origin root besides `basePath` (card, legacy card, JWKS). */
  rootPaths: ReadonlySet<string>;
  jsonRpcPath: string | false;
  restPath: string | false;
  cardPath: string;
  jwksPath: string;
  healthPath: string | undefined;
  /** The v0.3/v0.2/v0.1 wires are served. */
  legacy: boolean;
  /**
   * The card declares an extended card: v0.3's `/v1/card` is not the public card, and with the older wires v0.2's
   * extended card path is served.
   */
  extendedCard: boolean;
}

/** The wires that load at their first request: `undefined` until loaded (`dialects` only when some are configured). */
export interface LoadedWires {
  v03Rest: V03RestServer | undefined;
  dialects: readonly Dialect[] | undefined;
  v02Card: Dialect | undefined;
}

/** A request placed in the handler's paths. */
export interface Located {
  /** The path relative to the mount point or base path. */
  path: string;
  /** The mount prefix (or the base path), for the card's URLs. */
  prefix: string;
  /** One of the well-known documents at the origin root (outside `basePath`). */
  atRoot: boolean;
}

export interface RouteRequest extends Located {
  method: string;
  /** `A2A-Version` as Major.Minor. */
  version: string | undefined;
  /** The JWKS path has no keys to serve: match the path as any other. */
  skipJwks?: boolean | undefined;
}

/** A route that runs an A2A operation, by the wire it came on. */
export type OperationRoute =
  | { wire: 'jsonrpc' }
  | { wire: 'rest'; match: RestMatch }
  | { wire: 'v03-rest'; match: V03RestMatch; server: V03RestServer }
  | { wire: 'dialect'; route: DialectRoute };

export type RouteMatch =
  | { kind: 'none' }
  /** Load this wire (`LoadedWires`) and match again. */
  | { kind: 'load'; wire: 'v03-rest' | 'dialects' | 'v02-card' }
  | { kind: 'health' }
  /** 405 with `Allow`; `rest`: answered in the REST request's media type. */
  | { kind: 'not-allowed'; allow: string; rest: boolean }
  /** The agent card: at the legacy path, or v0.3's `/v1/card` of an agent without an extended card (`superset`). */
  | { kind: 'card'; legacyPath: boolean; superset: boolean }
  | { kind: 'jwks' }
  | { kind: 'operation'; route: OperationRoute };

const NONE: RouteMatch = { kind: 'none' };
const JSON_RPC: RouteMatch = { kind: 'operation', route: { wire: 'jsonrpc' } };
const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The request's path relative to the handler. With a base path: by the URL's own path, however the framework
 * mounted the adapter; `undefined` outside it (but for the root documents). Without: the adapter's `pathname`, the
 * rest of the URL's path being the prefix.
 */
export function locate(
  table: RouteTable,
  method: string,
  urlPath: string,
  pathname: string | undefined,
): Located | undefined {
  if (table.basePath) {
    const { basePath } = table;
    const under =
      urlPath.startsWith(basePath) && (urlPath.length === basePath.length || urlPath[basePath.length] === '/');
    if (!under && !(table.rootPaths.has(urlPath) && isRead(method))) return undefined;
    return { path: under ? urlPath.slice(basePath.length) : urlPath, prefix: basePath, atRoot: !under };
  }
  const path = pathname ?? urlPath;
  const prefix = urlPath.endsWith(path) ? urlPath.slice(0, urlPath.length - path.length) : '';
  return { path, prefix, atRoot: false };
}

/**
 * What a located request is, from its method, path and version only: every wire's routes in one place, in the order
 * they win. Pure (no I/O); a wire not loaded yet is asked for with `load`.
 */
export function matchRoute(table: RouteTable, wires: LoadedWires, request: RouteRequest): RouteMatch {
  const { method, path, version } = request;
  const legacyCard = table.legacy && path === LEGACY_CARD_PATH;
  const jwks = path === table.jwksPath && !request.skipJwks;
  if (table.healthPath !== undefined && path === table.healthPath && isRead(method)) return { kind: 'health' };
  // The card and key paths are ours whatever the method (OPTIONS stays with the host's CORS handling).
  if ((path === table.cardPath || legacyCard || jwks) && !isRead(method) && method !== 'OPTIONS') {
    return { kind: 'not-allowed', allow: 'GET, HEAD', rest: false };
  }
  if ((path === table.cardPath || legacyCard) && isRead(method)) {
    return { kind: 'card', legacyPath: legacyCard, superset: false };
  }
  if (jwks && isRead(method)) return { kind: 'jwks' };
  if (request.atRoot) return NONE;

  const { jsonRpcPath, restPath } = table;
  const isJsonRpc = jsonRpcPath !== false && method === 'POST' && samePath(path, jsonRpcPath);
  const onRest = !isJsonRpc && restPath !== false && path.startsWith(restPath);
  const restRelative = onRest ? path.slice(restPath.length) || '/' : '';
  // v0.3 REST lives under `/v1/` (a v1.0 client naming version 1.0 still reaches a tenant called `v1`).
  const v03Rest = restRelative.startsWith('/v1/') && table.legacy && version !== '1.0';
  // `/v1/card` is v0.3's authenticated extended card; an agent without one serves its public card there.
  if (v03Rest && restRelative === '/v1/card' && !table.extendedCard && isRead(method)) {
    return { kind: 'card', legacyPath: false, superset: true };
  }
  const v03Wire = v03Rest ? wires.v03Rest : undefined;
  if (v03Rest && !v03Wire) return { kind: 'load', wire: 'v03-rest' };
  const v03Match = v03Wire?.match(method, restRelative);
  const restCandidate = onRest && !v03Match ? matchRest(method, restRelative) : undefined;
  // The dialects' JSON-RPC methods are served beside the versions': every operation waits for them once.
  if (!wires.dialects) return { kind: 'load', wire: 'dialects' };
  // What v1.0 serves stays v1.0's (a tenant called `sessions` keeps `/sessions/message:send`); dialects and the v0.2
  // card take the rest of their paths, answering there instead of v1.0's 405 (`DELETE /tasks/{id}`).
  const v1Serves = restCandidate !== undefined && !('allowed' in restCandidate);
  let dialectRoute: DialectRoute | undefined;
  if (!isJsonRpc && !v03Match && !v1Serves && method !== 'OPTIONS') {
    if (table.legacy && table.extendedCard && path === V02_EXTENDED_CARD_PATH) {
      if (!wires.v02Card) return { kind: 'load', wire: 'v02-card' };
      dialectRoute = wires.v02Card.match?.(method, path);
    }
    dialectRoute ??= onRest ? matchDialects(wires.dialects, method, restRelative) : undefined;
  }

  if (isJsonRpc) return JSON_RPC;
  if (v03Wire && v03Match) return { kind: 'operation', route: { wire: 'v03-rest', match: v03Match, server: v03Wire } };
  if (dialectRoute) return { kind: 'operation', route: { wire: 'dialect', route: dialectRoute } };
  if (!restCandidate) return NONE;
  if ('allowed' in restCandidate) {
    return { kind: 'not-allowed', allow: [...new Set(restCandidate.allowed)].join(', '), rest: true };
  }
  return { kind: 'operation', route: { wire: 'rest', match: restCandidate } };
}

const samePath = (a: string, b: string) => a === b || (a === '' && b === '/') || a === `${b}/`;
