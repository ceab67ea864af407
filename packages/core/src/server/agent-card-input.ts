import { type AgentCard, AgentCardSchema } from '../schemas/agent-card.js';

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
  const parsed = AgentCardSchema.safeParse(card);
  if (!parsed.success)
    throw new Error(
      `Invalid agent card: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return { ...parsed.data, supportedInterfaces: input.supportedInterfaces ?? [] };
}
