import { A2AError, toA2AError } from '../errors.js';
import { textResponse } from '../http/prepared.js';
import { type HeaderInit, jsonResponse } from '../http/responses.js';
import { challenges } from '../http/security.js';
import type { Dialect, DialectRoute } from './dialects/dialect.js';
import { LegacyMethods } from './legacy-methods.js';
import { V02_EXTENDED_CARD_PATH } from './legacy-routes.js';
import { v03RestErrorBody } from './v03-rest.js';

// v0.2's authenticated extended card (seed document 001 §7.10): a plain HTTP GET of
// `{AgentCard.url}/../agent/authenticatedExtendedCard`, answered with the full card in the v0.2/v0.3 shape, or an
// HTTP error: 401 with `WWW-Authenticate` without credentials, 403 when the caller may not see it. Served where v0.2
// SDK clients fetch it, `/agent/authenticatedExtendedCard` under the handler's mount, when the card declares an
// extended card and the older wires are on.

const fail = (error: A2AError, headers: HeaderInit): Response =>
  textResponse(v03RestErrorBody(error), {
    status: error.httpStatus,
    headers: { 'content-type': 'application/json', ...headers },
  });

export function v02ExtendedCard(): Dialect {
  const legacy = new LegacyMethods();
  const route: DialectRoute = {
    fail,
    async serve(_request, _url, env, settings) {
      try {
        const result = await legacy.run('agent/getAuthenticatedExtendedCard', {}, env, '0.3');
        if (result.kind !== 'unary') throw new A2AError('Internal', 'Internal error');
        return jsonResponse(result.result, 200, settings.headers);
      } catch (error) {
        const a2a = toA2AError(error);
        if (a2a.type === 'Internal') settings.onError(error);
        const challenge =
          a2a.type === 'Unauthenticated' ? { 'www-authenticate': challenges(env.handler.agentCard) } : {};
        return fail(a2a, { ...settings.headers, ...challenge });
      }
    },
  };
  const notAllowed = (method: string): DialectRoute => ({
    fail,
    serve: async (_r, _u, _e, settings) =>
      fail(new A2AError('MethodNotAllowed', `Method ${method} not allowed here`), {
        ...settings.headers,
        allow: 'GET',
      }),
  });
  return {
    match: (method, path) =>
      path !== V02_EXTENDED_CARD_PATH ? undefined : method === 'GET' ? route : notAllowed(method),
  };
}
