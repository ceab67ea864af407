import { z } from 'zod';
import { hasOneMember } from './plain.js';
import { emptyList, emptyMap, emptyString, protoMessage, struct } from './proto-json.js';
import type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from './types.generated.js';

export { PROTOCOL_BINDINGS } from './plain.js';
// The protocol types, plain (generated from these schemas: scripts/generate-types.mjs).
export type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
};

export const AgentInterfaceSchema = protoMessage({
  url: z.string().min(1),
  /** "JSONRPC" | "HTTP+JSON" | "GRPC" or a custom binding URI. */
  protocolBinding: z.string().min(1),
  tenant: z.string().optional(),
  protocolVersion: z.string().min(1),
});

export const AgentProviderSchema = protoMessage({ url: emptyString, organization: emptyString });

export const AgentExtensionSchema = protoMessage({
  uri: z.string().min(1),
  description: z.string().optional(),
  required: z.boolean().optional(),
  params: struct.optional(),
});

export const AgentCapabilitiesSchema = protoMessage({
  streaming: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  extensions: z.array(AgentExtensionSchema).optional(),
  extendedAgentCard: z.boolean().optional(),
});

/** `{}` is a scheme without scopes: ProtoJSON omits the empty `list`. */
const StringListSchema = protoMessage({ list: emptyList(z.string()) });
/** One requirement = AND of its schemes; a list of requirements = OR. */
export const SecurityRequirementSchema = protoMessage({ schemes: emptyMap(StringListSchema) });

const scopes = emptyMap(z.string());
const OAuthFlowsSchema = protoMessage({
  authorizationCode: protoMessage({
    authorizationUrl: emptyString,
    tokenUrl: emptyString,
    refreshUrl: z.string().optional(),
    scopes,
    pkceRequired: z.boolean().optional(),
  }).optional(),
  clientCredentials: protoMessage({ tokenUrl: emptyString, refreshUrl: z.string().optional(), scopes }).optional(),
  deviceCode: protoMessage({
    deviceAuthorizationUrl: emptyString,
    tokenUrl: emptyString,
    refreshUrl: z.string().optional(),
    scopes,
  }).optional(),
  /** Deprecated in v1.0, still in the proto. */
  implicit: protoMessage({ authorizationUrl: emptyString, refreshUrl: z.string().optional(), scopes }).optional(),
  /** Deprecated in v1.0, still in the proto. */
  password: protoMessage({ tokenUrl: emptyString, refreshUrl: z.string().optional(), scopes }).optional(),
});

const description = z.string().optional();
export const SecuritySchemeSchema = protoMessage({
  apiKeySecurityScheme: protoMessage({
    description,
    location: z.enum(['query', 'header', 'cookie']),
    name: z.string().min(1),
  }).optional(),
  httpAuthSecurityScheme: protoMessage({
    description,
    scheme: z.string().min(1),
    bearerFormat: z.string().optional(),
  }).optional(),
  oauth2SecurityScheme: protoMessage({
    description,
    flows: OAuthFlowsSchema,
    oauth2MetadataUrl: z.string().optional(),
  }).optional(),
  openIdConnectSecurityScheme: protoMessage({ description, openIdConnectUrl: emptyString }).optional(),
  mtlsSecurityScheme: protoMessage({ description }).optional(),
}).refine(hasOneMember, {
  message: 'a security scheme must have exactly one scheme member',
});

export const AgentSkillSchema = protoMessage({
  id: z.string().min(1),
  name: z.string().min(1),
  description: emptyString,
  tags: z.array(z.string()).min(1),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
});

export const AgentCardSignatureSchema = protoMessage({
  /** base64url JWS protected header. */
  protected: z.string().min(1),
  /** base64url signature. */
  signature: z.string().min(1),
  header: struct.optional(),
});

export const AgentCardSchema = protoMessage({
  name: z.string().min(1),
  description: emptyString,
  supportedInterfaces: z.array(AgentInterfaceSchema).min(1),
  provider: AgentProviderSchema.optional(),
  version: z.string().min(1),
  documentationUrl: z.string().optional(),
  capabilities: AgentCapabilitiesSchema,
  securitySchemes: z.record(z.string(), SecuritySchemeSchema).optional(),
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
  defaultInputModes: emptyList(z.string()),
  defaultOutputModes: emptyList(z.string()),
  skills: z.array(AgentSkillSchema).min(1),
  signatures: z.array(AgentCardSignatureSchema).optional(),
  iconUrl: z.string().optional(),
});
