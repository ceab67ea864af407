import { describe, expect, it } from 'vitest';
import type { Dialect, DialectRoute } from '../compat/dialects/dialect.js';
import { V02_EXTENDED_CARD_PATH } from '../compat/legacy-routes.js';
import { V03RestServer } from '../compat/v03-rest.js';
import { type LoadedWires, locate, matchRoute, type RouteMatch, type RouteTable } from './match-route.js';

const table = (over: Partial<RouteTable> = {}): RouteTable => ({
  basePath: '',
  rootPaths: new Set(),
  jsonRpcPath: '/',
  restPath: '',
  cardPath: '/.well-known/agent-card.json',
  jwksPath: '/.well-known/jwks.json',
  healthPath: undefined,
  legacy: true,
  extendedCard: false,
  ...over,
});
const loaded = (over: Partial<LoadedWires> = {}): LoadedWires => ({
  v03Rest: undefined,
  dialects: [],
  v02Card: undefined,
  ...over,
});
const match = (
  method: string,
  path: string,
  options: { table?: RouteTable; wires?: LoadedWires; version?: string; atRoot?: boolean; skipJwks?: boolean } = {},
): RouteMatch =>
  matchRoute(options.table ?? table(), options.wires ?? loaded(), {
    method,
    path,
    prefix: '',
    atRoot: options.atRoot ?? false,
    version: options.version,
    skipJwks: options.skipJwks,
  });
const wireOf = (m: RouteMatch) => (m.kind === 'operation' ? m.route.wire : m.kind);

describe('locate', () => {
  it('without a base path: the adapter’s pathname, the rest of the URL path being the prefix', () => {
    expect(locate(table(), 'POST', '/agents/poet/', '/')).toEqual({ path: '/', prefix: '/agents/poet', atRoot: false });
    expect(locate(table(), 'POST', '/message:send', undefined)).toEqual({
      path: '/message:send',
      prefix: '',
      atRoot: false,
    });
  });

  it('with a base path: by the URL’s own path, the root documents for reads only, nothing else', () => {
    const t = table({ basePath: '/a2a', rootPaths: new Set(['/.well-known/agent-card.json']) });
    expect(locate(t, 'POST', '/a2a', '/ignored')).toEqual({ path: '', prefix: '/a2a', atRoot: false });
    expect(locate(t, 'GET', '/a2a/tasks/1', undefined)).toEqual({ path: '/tasks/1', prefix: '/a2a', atRoot: false });
    expect(locate(t, 'GET', '/.well-known/agent-card.json', undefined)).toEqual({
      path: '/.well-known/agent-card.json',
      prefix: '/a2a',
      atRoot: true,
    });
    expect(locate(t, 'POST', '/.well-known/agent-card.json', undefined)).toBeUndefined();
    expect(locate(t, 'GET', '/a2ax/tasks/1', undefined)).toBeUndefined();
    expect(locate(t, 'GET', '/other', undefined)).toBeUndefined();
  });
});

describe('matchRoute', () => {
  it('serves the card and the legacy card on reads, 405 on other methods, and leaves OPTIONS to the host', () => {
    expect(match('GET', '/.well-known/agent-card.json')).toEqual({ kind: 'card', legacyPath: false, superset: false });
    expect(match('HEAD', '/.well-known/agent.json')).toEqual({ kind: 'card', legacyPath: true, superset: false });
    expect(match('GET', '/.well-known/agent.json', { table: table({ legacy: false }) })).toEqual({ kind: 'none' });
    expect(match('DELETE', '/.well-known/jwks.json')).toEqual({ kind: 'not-allowed', allow: 'GET, HEAD', rest: false });
    expect(wireOf(match('OPTIONS', '/.well-known/agent-card.json'))).toBe('none');
  });

  it('matches the JWKS path as any other once it has no keys; a root document stays unmatched', () => {
    expect(match('GET', '/.well-known/jwks.json')).toEqual({ kind: 'jwks' });
    expect(match('GET', '/.well-known/jwks.json', { skipJwks: true })).toEqual({ kind: 'none' });
    expect(match('GET', '/.well-known/jwks.json', { skipJwks: true, atRoot: true })).toEqual({ kind: 'none' });
    expect(match('POST', '/', { atRoot: true })).toEqual({ kind: 'none' });
  });

  it('serves health only where configured, and only on reads', () => {
    expect(match('GET', '/healthz')).toEqual({ kind: 'none' });
    const t = table({ healthPath: '/healthz' });
    expect(match('GET', '/healthz', { table: t })).toEqual({ kind: 'health' });
    expect(wireOf(match('POST', '/healthz', { table: t }))).not.toBe('health');
  });

  it('tells JSON-RPC (POST on its path, with or without a trailing slash) from REST', () => {
    expect(wireOf(match('POST', '/'))).toBe('jsonrpc');
    expect(wireOf(match('POST', '', { table: table({ jsonRpcPath: '/' }) }))).toBe('jsonrpc');
    expect(wireOf(match('POST', '/rpc/', { table: table({ jsonRpcPath: '/rpc', restPath: '/rest' }) }))).toBe(
      'jsonrpc',
    );
    const rest = match('POST', '/acme/message:send');
    expect(rest.kind === 'operation' && rest.route.wire === 'rest' && rest.route.match.tenant).toBe('acme');
    expect(match('POST', '/message:send', { table: table({ restPath: false }) })).toEqual({ kind: 'none' });
    expect(wireOf(match('POST', '/', { table: table({ jsonRpcPath: false }) }))).toBe('none');
  });

  it('answers 405 with the allowed methods of a REST path', () => {
    expect(match('DELETE', '/tasks/t1')).toEqual({ kind: 'not-allowed', allow: 'GET', rest: true });
  });

  it('asks for v0.3 REST under /v1/ unless the request names 1.0, then matches with it', () => {
    expect(match('POST', '/v1/message:send')).toEqual({ kind: 'load', wire: 'v03-rest' });
    expect(wireOf(match('POST', '/v1/message:send', { version: '1.0' }))).toBe('rest'); // a tenant called `v1`
    expect(match('POST', '/v1/message:send', { table: table({ legacy: false }) })).toMatchObject({
      kind: 'operation',
      route: { wire: 'rest' },
    });
    const v03Rest = new V03RestServer();
    expect(match('GET', '/v1/message:send', { wires: loaded({ v03Rest }) })).toEqual({
      kind: 'operation',
      route: { wire: 'v03-rest', match: { allowed: ['POST'] }, server: v03Rest },
    });
    expect(match('GET', '/v1/other', { wires: loaded({ v03Rest }) })).toEqual({ kind: 'none' });
  });

  it('serves the public card at v0.3’s /v1/card when there is no extended card', () => {
    expect(match('GET', '/v1/card')).toEqual({ kind: 'card', legacyPath: false, superset: true });
    expect(match('GET', '/v1/card', { table: table({ extendedCard: true }) })).toEqual({
      kind: 'load',
      wire: 'v03-rest',
    });
  });

  it('waits for the dialects before any operation, but not for the card', () => {
    const waiting = loaded({ dialects: undefined });
    expect(match('POST', '/', { wires: waiting })).toEqual({ kind: 'load', wire: 'dialects' });
    expect(match('GET', '/.well-known/agent-card.json', { wires: waiting }).kind).toBe('card');
  });

  it('gives a dialect the paths v1.0 does not serve, but never v1.0’s own routes, JSON-RPC or OPTIONS', () => {
    const route = {} as DialectRoute;
    const dialect: Dialect = { match: (_method, path) => (path.startsWith('/sessions') ? route : undefined) };
    const wires = loaded({ dialects: [dialect] });
    expect(match('GET', '/sessions/s1', { wires })).toEqual({ kind: 'operation', route: { wire: 'dialect', route } });
    expect(wireOf(match('POST', '/sessions/message:send', { wires }))).toBe('rest'); // tenant `sessions`
    expect(wireOf(match('OPTIONS', '/sessions/s1', { wires }))).toBe('none');
    const tasksDialect: Dialect = {
      match: (method, path) => (method === 'DELETE' && path === '/tasks/t1' ? route : undefined),
    };
    expect(wireOf(match('DELETE', '/tasks/t1', { wires: loaded({ dialects: [tasksDialect] }) }))).toBe('dialect');
  });

  it('asks for v0.2’s extended card at its path only when served', () => {
    expect(match('GET', V02_EXTENDED_CARD_PATH, { table: table({ extendedCard: true }) })).toEqual({
      kind: 'load',
      wire: 'v02-card',
    });
    expect(wireOf(match('GET', V02_EXTENDED_CARD_PATH))).toBe('none');
    expect(wireOf(match('GET', V02_EXTENDED_CARD_PATH, { table: table({ extendedCard: true, legacy: false }) }))).toBe(
      'none',
    );
    const route = {} as DialectRoute;
    const v02Card: Dialect = { match: () => route };
    expect(
      match('GET', V02_EXTENDED_CARD_PATH, { table: table({ extendedCard: true }), wires: loaded({ v02Card }) }),
    ).toEqual({ kind: 'operation', route: { wire: 'dialect', route } });
  });
});
