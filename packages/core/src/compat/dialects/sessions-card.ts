import type { AgentCard, SecurityScheme } from '../../schemas/agent-card.js';

// The sessions dialect's agent card (seed document 004, `GET /card`): name, description, version,
// `api{type:'a2a', url, version}`, `auth{type, instructions}`, `capabilities[]` (the skills) and `contact` (the
// provider), made from the served v1.0 card. `pricing` is left out: nothing in an A2A card says it.

export interface SessionsCard {
  name: string;
  description: string;
  version: string;
  api: { type: 'a2a'; url: string; version: string };
  auth: { type: 'none' | 'api_key' | 'oauth' | 'jwt' | 'custom'; instructions?: string };
  capabilities: { type: string; description: string; parameters?: Record<string, unknown> }[];
  contact?: { name?: string; url?: string };
}

export function sessionsCard(card: AgentCard): SessionsCard {
  const rest = card.supportedInterfaces.find((i) => i.protocolBinding === 'HTTP+JSON') ?? card.supportedInterfaces[0];
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    api: { type: 'a2a', url: rest?.url ?? '', version: '1.0' },
    auth: auth(Object.values(card.securitySchemes ?? {})[0]),
    capabilities: card.skills.map((skill) => ({
      type: skill.id,
      description: skill.description,
      parameters: {
        name: skill.name,
        tags: skill.tags,
        ...(skill.examples && { examples: skill.examples }),
        ...(skill.inputModes && { input_modes: skill.inputModes }),
        ...(skill.outputModes && { output_modes: skill.outputModes }),
      },
    })),
    ...(card.provider && { contact: { name: card.provider.organization, url: card.provider.url } }),
  };
}

function auth(scheme: SecurityScheme | undefined): SessionsCard['auth'] {
  if (!scheme) return { type: 'none' };
  if (scheme.apiKeySecurityScheme) {
    const { name, location } = scheme.apiKeySecurityScheme;
    return { type: 'api_key', instructions: `Send the API key in the ${location} parameter ${name}.` };
  }
  if (scheme.httpAuthSecurityScheme) {
    const { scheme: name, bearerFormat } = scheme.httpAuthSecurityScheme;
    const jwt = /^jwt$/i.test(bearerFormat ?? '');
    return { type: jwt ? 'jwt' : 'custom', instructions: `Send Authorization: ${name} <credentials>.` };
  }
  if (scheme.oauth2SecurityScheme || scheme.openIdConnectSecurityScheme) {
    return { type: 'oauth', instructions: 'Send Authorization: Bearer <access token> (OAuth 2.0).' };
  }
  return { type: 'custom', instructions: 'Authenticate with a client TLS certificate.' };
}
