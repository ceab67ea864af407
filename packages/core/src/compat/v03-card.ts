import { isObject } from '../is-object.js';
import type { AgentCard, AgentInterface, SecurityRequirement, SecurityScheme } from '../schemas/agent-card.js';
import { schemasNow } from '../schemas/schemas-now.js';
import { INVALID, validateAgentCard } from '../schemas/validators.generated.js';
import { badShape, compact } from './shape.js';

// Agent card translation. v0.3 cards have a top-level `url` + `preferredTransport` + `additionalInterfaces`, a
// card-level `protocolVersion`, `supportsAuthenticatedExtendedCard`, `type`-tagged security schemes with `in`, and
// `security: [{name: scopes}]`. v1.0 cards list `supportedInterfaces` with a version each.

type Json = Record<string, unknown>;

export const V03_PROTOCOL_VERSION = '0.3.0';

/** The interface a v0.3 client should use: a 0.3 JSON-RPC one if declared, else the first JSON-RPC one. */
function legacyInterfaces(card: AgentCard): AgentInterface[] {
  const declared = card.supportedInterfaces.filter((i) => i.protocolVersion.startsWith('0.'));
  if (declared.length) return declared;
  const jsonRpc = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC');
  return jsonRpc ? [jsonRpc] : card.supportedInterfaces.slice(0, 1);
}

export function toV03SecurityScheme(scheme: SecurityScheme): Json {
  if (scheme.apiKeySecurityScheme) {
    const s = scheme.apiKeySecurityScheme;
    return compact({ type: 'apiKey', in: s.location, name: s.name, description: s.description });
  }
  if (scheme.httpAuthSecurityScheme) {
    const s = scheme.httpAuthSecurityScheme;
    return compact({ type: 'http', scheme: s.scheme, bearerFormat: s.bearerFormat, description: s.description });
  }
  if (scheme.oauth2SecurityScheme) {
    const s = scheme.oauth2SecurityScheme;
    const { deviceCode: _unsupportedInV03, authorizationCode, ...flows } = s.flows;
    const code = authorizationCode && (({ pkceRequired: _, ...rest }) => rest)(authorizationCode);
    return compact({
      type: 'oauth2',
      flows: compact({ ...flows, authorizationCode: code }),
      oauth2MetadataUrl: s.oauth2MetadataUrl,
      description: s.description,
    });
  }
  if (scheme.openIdConnectSecurityScheme) {
    const s = scheme.openIdConnectSecurityScheme;
    return compact({ type: 'openIdConnect', openIdConnectUrl: s.openIdConnectUrl, description: s.description });
  }
  return compact({ type: 'mutualTLS', description: scheme.mtlsSecurityScheme?.description });
}

function fromV03SecurityScheme(s: Json, name: string): Json {
  const description = s.description ?? undefined;
  switch (s.type) {
    case 'apiKey':
      return { apiKeySecurityScheme: compact({ location: s.in, name: s.name, description }) };
    case 'http':
      return {
        httpAuthSecurityScheme: compact({ scheme: s.scheme, bearerFormat: s.bearerFormat ?? undefined, description }),
      };
    case 'oauth2':
      return {
        oauth2SecurityScheme: compact({
          flows: s.flows,
          oauth2MetadataUrl: s.oauth2MetadataUrl ?? undefined,
          description,
        }),
      };
    case 'openIdConnect':
      return { openIdConnectSecurityScheme: compact({ openIdConnectUrl: s.openIdConnectUrl, description }) };
    case 'mutualTLS':
      return { mtlsSecurityScheme: compact({ description }) };
    default:
      throw badShape('0.3', `securitySchemes.${name}.type`, `unknown security scheme type ${JSON.stringify(s.type)}`);
  }
}

const toV03Security = (requirements: SecurityRequirement[] | undefined) =>
  requirements?.map((r) => Object.fromEntries(Object.entries(r.schemes).map(([name, scopes]) => [name, scopes.list])));

const fromV03Security = (security: unknown) =>
  Array.isArray(security)
    ? security.map((r: Json) => ({
        schemes: Object.fromEntries(Object.entries(r).map(([name, list]) => [name, { list }])),
      }))
    : undefined;

const mapValues = <T, U>(o: Record<string, T> | undefined, f: (v: T, k: string) => U) =>
  o && Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v, k)]));

/** The card as a v0.3 client reads it. Fields v0.3 does not have are left out. */
export function toV03AgentCard(card: AgentCard): Json {
  const legacy = legacyInterfaces(card);
  const main = legacy[0] ?? card.supportedInterfaces[0];
  const { extendedAgentCard, ...capabilities } = card.capabilities;
  return compact({
    protocolVersion: V03_PROTOCOL_VERSION,
    name: card.name,
    description: card.description,
    url: main?.url,
    preferredTransport: main?.protocolBinding,
    additionalInterfaces: legacy.map((i) => ({ url: i.url, transport: i.protocolBinding })),
    iconUrl: card.iconUrl,
    provider: card.provider,
    version: card.version,
    documentationUrl: card.documentationUrl,
    capabilities,
    securitySchemes: mapValues(card.securitySchemes, toV03SecurityScheme),
    security: toV03Security(card.securityRequirements),
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ securityRequirements, ...skill }) =>
      compact({ ...skill, security: toV03Security(securityRequirements) }),
    ),
    supportsAuthenticatedExtendedCard: extendedAgentCard,
  });
}

/**
 * One card both generations parse: the v1.0 card plus the v0.3 top-level fields (different names, no clash), and
 * each security scheme carrying both its v1.0 wrapper and the v0.3 `type`-tagged members side by side.
 */
export function toSupersetAgentCard(card: AgentCard): Json {
  const v03 = toV03AgentCard(card);
  return compact({
    ...card,
    protocolVersion: v03.protocolVersion,
    url: v03.url,
    preferredTransport: v03.preferredTransport,
    additionalInterfaces: v03.additionalInterfaces,
    security: v03.security,
    supportsAuthenticatedExtendedCard: v03.supportsAuthenticatedExtendedCard,
    securitySchemes: mapValues(card.securitySchemes, (s) => ({ ...s, ...toV03SecurityScheme(s) })),
  });
}

/**
 * A v0.3 (or v0.2 / v0.1) card as a v1.0 card. Every interface is declared with its card's protocol version
 * (Major.Minor). v0.1 `authentication` and v0.3 `stateTransitionHistory` have no v1.0 counterpart and are dropped.
 */
export function fromV03AgentCard(input: unknown): AgentCard {
  if (!isObject(input)) throw badShape('0.3', 'card', 'must be an object');
  const version = /^(\d+\.\d+)/.exec(String(input.protocolVersion ?? ''))?.[1] ?? '0.3';
  const interfaces: Json[] = [];
  const add = (url: unknown, transport: unknown) => {
    if (typeof url !== 'string') return;
    const binding = typeof transport === 'string' ? transport : 'JSONRPC';
    if (!interfaces.some((i) => i.url === url && i.protocolBinding === binding)) {
      interfaces.push({ url, protocolBinding: binding, protocolVersion: version });
    }
  };
  add(input.url, input.preferredTransport);
  if (Array.isArray(input.additionalInterfaces))
    for (const i of input.additionalInterfaces as Json[]) add(i.url, i.transport);
  const { stateTransitionHistory: _removedInV1, ...capabilities } = (
    isObject(input.capabilities) ? input.capabilities : {}
  ) as Json;
  const skills = Array.isArray(input.skills) ? (input.skills as Json[]) : [];
  const card = compact({
    name: input.name,
    description: input.description ?? '',
    supportedInterfaces: interfaces,
    provider: input.provider ?? undefined,
    version: input.version,
    documentationUrl: input.documentationUrl ?? undefined,
    iconUrl: input.iconUrl ?? undefined,
    capabilities: compact({
      ...capabilities,
      extendedAgentCard:
        typeof input.supportsAuthenticatedExtendedCard === 'boolean'
          ? input.supportsAuthenticatedExtendedCard
          : undefined,
    }),
    securitySchemes: mapValues(
      isObject(input.securitySchemes) ? (input.securitySchemes as Record<string, Json>) : undefined,
      fromV03SecurityScheme,
    ),
    securityRequirements: fromV03Security(input.security),
    defaultInputModes: input.defaultInputModes ?? ['text/plain'],
    defaultOutputModes: input.defaultOutputModes ?? ['text/plain'],
    skills: skills.map(({ security, ...skill }) =>
      compact({ ...skill, description: skill.description ?? '', securityRequirements: fromV03Security(security) }),
    ),
    signatures: input.signatures ?? undefined,
  });
  // The check generated from AgentCardSchema; on a refusal, the schema itself names the field (where it can load now).
  const checked = validateAgentCard(card);
  if (checked !== INVALID) return checked;
  const parsed = schemasNow()?.AgentCardSchema.safeParse(card) ?? { success: false as const, error: { issues: [] } };
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw badShape(version, first?.path.join('.') || 'card', first?.message ?? 'invalid card');
  }
  return parsed.data;
}
