import { setTimeout as delay } from 'node:timers/promises';
import type { AgentCardInput, AgentContext, AgentExecutor, ArtifactChunk, Part } from '@a2a/core';

export const REQUIRED_EXTENSION = 'urn:a2a:tck:required-extension';

/** The card the kits read. Capabilities are only declared where the server really has them. */
export function tckAgentCard(options: { requiredExtension?: boolean; extendedCard?: boolean } = {}): AgentCardInput {
  return {
    name: 'A2A TCK system under test',
    description:
      'An agent whose behaviour the conformance kit chooses through the messageId prefix (v1.0 kit) or runs generically (v0.3 kit).',
    version: '1.0.0',
    provider: { organization: 'a2a-plugins', url: 'https://github.com/a2a-plugins' },
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: options.extendedCard ?? true,
      ...(options.requiredExtension && {
        extensions: [{ uri: REQUIRED_EXTENSION, description: 'Required by the TCK', required: true }],
      }),
    },
    defaultInputModes: ['text/plain', 'application/json', 'application/octet-stream'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'tck',
        name: 'Conformance behaviours',
        description: 'Completes, asks for input, streams artifacts or answers with a message, as the kit asks',
        tags: ['tck', 'conformance'],
        examples: ['tck-complete-task', 'tck-stream-artifact-chunked', 'tck-auth-required', 'tck-delayed-complete'],
      },
    ],
  };
}

/** The extended card adds what an authenticated caller may see. */
export function tckExtendedCard(card: AgentCardInput): AgentCardInput {
  return {
    ...card,
    description: `${card.description} (extended card)`,
    skills: [
      ...(card.skills ?? []),
      { id: 'tck-extended', name: 'Extended skill', description: 'Only on the extended card', tags: ['tck'] },
    ],
  };
}

const FILE_PART: Part = { raw: Buffer.from('tck').toString('base64'), filename: 'output.txt', mediaType: 'text/plain' };
const URL_PART: Part = { url: 'https://example.com/output.txt', filename: 'output.txt', mediaType: 'text/plain' };

type Behaviour = (ctx: AgentContext) => Promise<void>;

/** Working, one artifact, completed: the shape of most streaming behaviours. */
const streamed =
  (artifact: ArtifactChunk): Behaviour =>
  async (ctx) => {
    await ctx.working();
    await ctx.artifact(artifact);
    await ctx.complete();
  };

const artifactThenComplete =
  (artifact: ArtifactChunk): Behaviour =>
  async (ctx) => {
    await ctx.artifact(artifact);
    await ctx.complete();
  };

/**
 * WORKING for a while, then COMPLETED, all inside `execute()`: a blocking send observably waits for the end and a
 * `returnImmediately` one does not (the kit's execution-mode checks).
 */
const delayedComplete =
  (ms: number): Behaviour =>
  async (ctx) => {
    await ctx.working();
    await sleep(ms, ctx.signal);
    if (!ctx.signal.aborted) await ctx.complete('Done after delay');
  };

/** v1.0 kit behaviours by messageId prefix; longer prefixes first where one prefixes another. */
const behaviours = (options: Required<TckAgentOptions>): [prefix: string, behaviour: Behaviour][] => [
  ['tck-complete-task', (ctx) => ctx.complete('Hello from TCK')],
  ['tck-input-required', (ctx) => ctx.inputRequired('Please provide more input')],
  // Open and waiting: AUTH_REQUIRED is an interrupted state, not a terminal one.
  ['tck-auth-required', (ctx) => ctx.authRequired('Authentication required: sign in and send the credentials')],
  ['tck-delayed-complete', delayedComplete(options.delayedCompleteMs)],
  ['tck-message-response', (ctx) => ctx.reply('Direct message response')],
  ['tck-artifact-text', artifactThenComplete({ text: 'Generated text content' })],
  ['tck-artifact-file-url', artifactThenComplete({ parts: [URL_PART] })],
  ['tck-artifact-file', artifactThenComplete({ parts: [FILE_PART] })],
  ['tck-artifact-data', artifactThenComplete({ parts: [{ data: { key: 'value', count: 42 } }] })],
  ['tck-reject-task', (ctx) => ctx.reject('rejected')],
  ['tck-stream-artifact-text', streamed({ text: 'Streamed text content' })],
  ['tck-stream-artifact-file', streamed({ parts: [FILE_PART] })],
  [
    'tck-stream-artifact-chunked',
    async (ctx) => {
      await ctx.working();
      await ctx.artifact({ artifactId: 'chunked', text: 'chunk-1 ', append: true });
      await ctx.artifact({ artifactId: 'chunked', text: 'chunk-2', append: true, lastChunk: true });
      await ctx.complete();
    },
  ],
  ['tck-stream-ordering-001', streamed({ text: 'Ordered output' })],
  ['tck-stream-001', streamed({ text: 'Stream hello from TCK' })],
  ['tck-stream-002', (ctx) => ctx.complete()],
  ['tck-stream-003', streamed({ text: 'Stream task lifecycle' })],
  [
    'test-resubscribe-message-id',
    async (ctx) => {
      await ctx.working();
      // Background work: the kit resubscribes while the task is still running.
      void sleep(4000, ctx.signal)
        .then(() => (ctx.signal.aborted ? undefined : ctx.complete()))
        .catch(() => {}); // canceled meanwhile
    },
  ],
];

/** Resolves after `ms`, or at once when the task is canceled. */
const sleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => {});

export interface TckAgentOptions {
  /** How long a v0.3 task stays WORKING before it asks for input (the 0.3 kit attaches streams meanwhile). */
  v03WorkingMs?: number;
  /** How long `tck-delayed-complete` stays WORKING. Default 2 s. */
  delayedCompleteMs?: number;
}

/** The behaviour a v1.0 message asks for: by messageId prefix (the kit's `tck_id`), else by its text. */
const chooseBehaviour = (table: [string, Behaviour][], ctx: AgentContext): Behaviour | undefined => {
  const id = ctx.message.messageId;
  const text = ctx.message.parts.find((p) => p.text !== undefined)?.text?.trim() ?? '';
  return table.find(([prefix]) => id.startsWith(prefix))?.[1] ?? table.find(([prefix]) => text.startsWith(prefix))?.[1];
};

/**
 * v1.0 requests: the behaviour the messageId prefix (or else the text) names. v0.3 requests: the generic agent the 0.3 kit expects
 * (working with a status message, then input-required with a reply, again for every follow-up; never completes).
 */
export function createTckExecutor(options: TckAgentOptions = {}): AgentExecutor {
  const workingMs = options.v03WorkingMs ?? 3000;
  const table = behaviours({ v03WorkingMs: workingMs, delayedCompleteMs: options.delayedCompleteMs ?? 2000 });
  return {
    async execute(ctx) {
      if (ctx.protocolVersion !== '1.0') {
        await ctx.working('Processing your request');
        void sleep(workingMs, ctx.signal)
          .then(async () => {
            if (ctx.signal.aborted) return;
            const text = ctx.message.parts.find((p) => p.text !== undefined)?.text ?? '';
            await ctx.inputRequired(`Received: ${text}. What else do you need?`);
          })
          .catch(() => {}); // canceled meanwhile
        return;
      }
      const behaviour = chooseBehaviour(table, ctx);
      if (behaviour) return behaviour(ctx);
      return ctx.complete(`Unhandled messageId prefix: ${ctx.message.messageId}`);
    },
  };
}
