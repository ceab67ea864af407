import type { AgentCard } from '../schemas/agent-card.js';
import type { AgentExecutor } from './agent-executor.js';

/**
 * Mistakes caught when the handler is made, not on the first request: a missing or malformed executor throws with
 * what to pass; settings that would silently do nothing are reported as warnings.
 */
export function checkExecutor(executor: unknown): asserts executor is AgentExecutor {
  const shape = 'an object with an execute(context) method, e.g. { async execute(ctx) { await ctx.reply("hi") } }';
  if (typeof executor === 'function') {
    throw new TypeError(`executor must be ${shape}; got a bare function: pass { execute: yourFunction }`);
  }
  if (!executor || typeof executor !== 'object') {
    throw new TypeError(`executor must be ${shape}; got ${executor === null ? 'null' : typeof executor}`);
  }
  const { execute, cancel } = executor as Partial<Record<keyof AgentExecutor, unknown>>;
  if (typeof execute !== 'function') throw new TypeError(`executor must be ${shape}; its execute is ${typeof execute}`);
  if (cancel !== undefined && typeof cancel !== 'function') {
    throw new TypeError(`executor.cancel must be a method (context) => void when given; got ${typeof cancel}`);
  }
}

/** v0.3 card fields the v1.0 card replaces (the card input is v1.0; these would be dropped without a word). */
const V03_CARD_FIELDS: Record<string, string> = {
  url: 'the served card lists supportedInterfaces derived from where the handler is mounted (set publicUrl for a fixed public URL)',
  preferredTransport: 'supportedInterfaces (derived from the mount) replace it',
  additionalInterfaces: 'supportedInterfaces (derived from the mount) replace it',
  protocolVersion: 'each supportedInterfaces entry carries its protocolVersion; v0.3 clients still get a v0.3 card',
  supportsAuthenticatedExtendedCard: 'use capabilities.extendedAgentCard',
};

/** Warnings for card fields the v1.0 card does not have (dropped) and for advertised push without a sender. */
export function setupWarnings(input: Record<string, unknown>, card: AgentCard, hasPushSender: boolean): string[] {
  const warnings: string[] = [];
  const kept = new Set(Object.keys(card));
  for (const key of Object.keys(input)) {
    if (input[key] === undefined || kept.has(key) || kept.has(camelCase(key))) continue;
    const hint = V03_CARD_FIELDS[key];
    warnings.push(
      hint
        ? `agentCard.${key} is a v0.3 field and is ignored: ${hint}`
        : `agentCard.${key} is not an AgentCard field and is ignored`,
    );
  }
  if (card.capabilities.pushNotifications && !hasPushSender) {
    warnings.push(
      'agentCard.capabilities.pushNotifications is true but no pushNotifications sender is configured: clients could ' +
        'register webhooks that are never called. Pass pushNotifications: createPushSender(...) (or createNodePushSender), or set it false',
    );
  }
  return warnings;
}

const camelCase = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
