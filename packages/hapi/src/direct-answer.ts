// @a2a/hapi: a ready A2A answer (a string body) written straight to Node's response when nothing in the server would
// see or change it on Hapi's way out: Hapi's response object, its marshal and transmit steps cost ~13 % of a
// SendMessage and ~20 % of a card GET in-process (docs/performance.md, "Hapi SendMessage and the NestJS card,
// twenty-second session"). The headers Hapi adds to such an answer are added here the same way (the charset, its
// default cache-control, accept-ranges on a GET). Anything that could act on the answer sends it through Hapi as before:
// another onPostHandler/onPreResponse/onPostResponse extension, a 'response' listener, CORS, security headers, route
// caching or response validation, auth response hooks, cookies to set, a conditional or range GET, a body large
// enough to compress, `server.inject`. Reads Hapi 21's route internals; when they are not as expected, Hapi's path.
// Tests: packages/hapi/test/direct-answer.test.ts.
import type { ServerResponse } from 'node:http';
import { responseHeaders, responseText } from '@a2a/core/node';
import type { Request } from '@hapi/hapi';

/** The parts of Hapi 21's request and route internals read here. */
interface Extension {
  nodes: { func: unknown }[] | null;
}
interface RouteInternals {
  _extensions?: { onPostHandler?: Extension; onPreResponse?: Extension; onPostResponse?: Extension };
  _postCycle?: unknown[];
  _marshalCycle?: unknown[];
  _cache?: unknown;
}
interface RequestInternals {
  /** Public (`request.isInjected`) but missing from Hapi's type declarations. */
  isInjected?: boolean;
  _route?: RouteInternals;
  _states?: object;
}

/**
 * Hapi's marshal steps on a route with no CORS, no security headers and no auth response hook: content type, entity,
 * cache, state and content, plus the conditional-GET check on GET and '*' routes (every route of this plugin).
 */
const PLAIN_MARSHAL_STEPS = 6;
/** Hapi's rule for adding the response's charset (`response.contentType`). */
const CHARSET_TYPES = /^(?:text\/)|(?:application\/(?:json)|(?:javascript))/;

/** Whether an extension list holds only this plugin's own functions. */
const onlyOurs = (extension: Extension | undefined, ours: WeakSet<object>) =>
  extension !== undefined && (extension.nodes ?? []).every((node) => ours.has(node.func as object));

/**
 * Writes `response` to Node's response and answers true, or answers false (nothing written) when the answer must go
 * through Hapi. `ours`: the plugin's own extension functions (its `onPreResponse`, which only answers Hapi's refusals).
 */
export function answerDirectly(request: Request, response: Response, ours: WeakSet<object>): boolean {
  const text = responseText(response);
  const { isInjected, _route: route, _states: states } = request as unknown as RequestInternals;
  if (text === undefined || text === '' || isInjected) return false;
  const extensions = route?._extensions;
  if (
    !route ||
    !extensions ||
    route._cache !== undefined ||
    route._marshalCycle?.length !== PLAIN_MARSHAL_STEPS ||
    route._postCycle?.length !== (extensions.onPreResponse?.nodes ? 1 : 0) ||
    extensions.onPostHandler?.nodes ||
    extensions.onPostResponse?.nodes ||
    !onlyOurs(extensions.onPreResponse, ours) ||
    !states ||
    Object.keys(states).length > 0
  ) {
    return false;
  }
  const server = request.server;
  const settings = request.route.settings;
  if (settings.cors || settings.security || !server.info.started || server.events.hasListeners('response')) {
    return false;
  }
  for (const name in server.states.cookies) if (server.states.cookies[name]?.autoValue !== undefined) return false;
  const get = request.method === 'get';
  const headers = request.headers;
  if (
    request.method === 'head' ||
    (get && (headers.range || headers['if-none-match'] || headers['if-modified-since']))
  ) {
    return false;
  }
  const length = Buffer.byteLength(text);
  const compression = server.settings.compression;
  if (compression && length >= (compression === true ? 1024 : (compression.minBytes ?? 1024))) return false;

  const res: ServerResponse = request.raw.res;
  res.statusCode = response.status;
  const record = responseHeaders(response);
  for (const name in record) res.setHeader(name, record[name] as string | string[]);
  // What Hapi's marshal adds to such an answer (lib/headers.js, lib/response.js, lib/transmit.js).
  const type = record['content-type'];
  if (typeof type === 'string' && CHARSET_TYPES.test(type.trim()) && !/; *charset=/.test(type)) {
    const trimmed = type.trim();
    res.setHeader('content-type', `${trimmed}${trimmed.endsWith(';') ? ' ' : '; '}charset=utf-8`);
  }
  const cache = settings.cache as { otherwise?: string } | false | undefined;
  if (record['cache-control'] === undefined && cache && cache.otherwise)
    res.setHeader('cache-control', cache.otherwise);
  res.setHeader('content-length', length);
  if (get && response.status === 200 && settings.response?.ranges) res.setHeader('accept-ranges', 'bytes');
  res.end(text);
  return true;
}
