import type { AgentCard } from '../schemas/agent-card.js';
import { schemasNow } from '../schemas/schemas-now.js';
import { INVALID, validateAgentCard } from '../schemas/validators.generated.js';

/** The agent card as the app declares it; the HTTP layer fills in `supportedInterfaces` from where it is mounted. */
export type AgentCardInput = Omit<
  AgentCard,
  'supportedInterfaces' | 'defaultInputModes' | 'defaultOutputModes' | 'capabilities'
> & {
  supportedInterfaces?: AgentCard['supportedInterfaces'];
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  capabilities?: AgentCard['capabilities'];
};

/** The declared card with the engine's defaults, checked against the v1.0 schema (a bad card fails at setup). */
export function normalizeCard(input: AgentCardInput): AgentCard {
  const card = {
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    capabilities: {},
    ...input,
    supportedInterfaces: input.supportedInterfaces ?? [
      { url: 'http://localhost/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
  };
  // The check generated from AgentCardSchema (no Zod at setup); on a refusal, the schema itself names the fields.
  const checked = validateAgentCard(card);
  if (checked !== INVALID) return { ...checked, supportedInterfaces: input.supportedInterfaces ?? [] };
  const parsed = schemasNow()?.AgentCardSchema.safeParse(card);
  if (!parsed) {
    throw new Error('Invalid agent card (AgentCardSchema from @a2a/core/schemas.safeParse(card) names the fields)');
  }
  if (!parsed.success)
    throw new Error(
      `Invalid agent card: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return { ...parsed.data, supportedInterfaces: input.supportedInterfaces ?? [] };
}
