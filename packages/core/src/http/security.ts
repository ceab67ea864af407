import { A2AError } from '../errors.js';
import type { AgentCard } from '../schemas/agent-card.js';
import type { A2AUser } from '../server/agent-executor.js';
import type { HeaderInit } from './responses.js';

/** True when the card declares security: then every A2A call needs an authenticated user. */
export function requiresAuth(card: AgentCard): boolean {
  return Boolean(card.securityRequirements?.length) || hasOwnKey(card.securitySchemes);
}

/**
 * Whether `Object.keys(record)` would list anything, without making that array (every request asks, issue 39,
 * docs/performance.md "Per request").
 */
function hasOwnKey(record: object | undefined): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

/** `WWW-Authenticate` challenges for the declared schemes (RFC 9110 §11.6.1). */
export function challenges(card: AgentCard): string {
  const out: string[] = [];
  for (const scheme of Object.values(card.securitySchemes ?? {})) {
    if (scheme.httpAuthSecurityScheme) out.push(`${scheme.httpAuthSecurityScheme.scheme} realm="a2a"`);
    else if (scheme.apiKeySecurityScheme) {
      const { name, location } = scheme.apiKeySecurityScheme;
      out.push(`ApiKey realm="a2a", name="${name}", in="${location}"`);
    } else if (scheme.oauth2SecurityScheme || scheme.openIdConnectSecurityScheme) out.push('Bearer realm="a2a"');
  }
  return [...new Set(out)].join(', ') || 'Bearer realm="a2a"';
}

/**
 * 401 without a user; 403 when the user has scopes and no requirement (OR of ANDs) is satisfied by them.
 * A user without a `scopes` list is trusted as authenticated by the host app.
 */
export function authorize(card: AgentCard, user: A2AUser | undefined): void {
  if (!requiresAuth(card)) return;
  if (!user) throw new A2AError('Unauthenticated', 'Authentication required');
  const requirements = card.securityRequirements ?? [];
  if (!user.scopes || requirements.length === 0) return;
  const granted = new Set(user.scopes);
  const satisfied = requirements.some((r) =>
    Object.values(r.schemes).every((scopes) => scopes.list.every((s) => granted.has(s))),
  );
  if (!satisfied) throw new A2AError('PermissionDenied', 'Insufficient scope for this agent');
}

/**
 * The headers of an error answer, with the challenges when it is a 401: RFC 9110 §15.5.2 requires `WWW-Authenticate`
 * on every 401, including one an operation raises itself (the extended card asked for without a caller), which the
 * handler's own check above never saw.
 */
export function withChallenge(
  error: A2AError,
  env: { handler: { agentCard: AgentCard } },
  headers: HeaderInit,
): HeaderInit {
  return error.type === 'Unauthenticated'
    ? { ...headers, 'www-authenticate': challenges(env.handler.agentCard) }
    : headers;
}
