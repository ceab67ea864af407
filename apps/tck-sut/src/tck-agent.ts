import type { AgentCardInput, AgentContext, AgentExecutor } from '@a2a/core';
import { actsBehaviourName, actsBehaviours, unknownBehaviour } from './acts-behaviours.js';
import { type Behaviour, COMMON, FILE_PART, sleep, streamed } from './behaviours.js';

export const REQUIRED_EXTENSION = 'urn:a2a:tck:required-extension';

export interface TckCardOptions {
  requiredExtension?: boolean;
  extendedCard?: boolean;
  /** Default true; ACTS's reduced pass declares neither (ITK_ACTS_REDUCED_CAPABILITIES). */
  streaming?: boolean;
  pushNotifications?: boolean;
  /** Security schemes and requirements (ACTS's auth pass); none by default. */
  security?: Pick<AgentCardInput, 'securitySchemes' | 'securityRequirements'>;
}

/** The card the kits read. Capabilities are only declared where the server really has them. */
export function tckAgentCard(options: TckCardOptions = {}): AgentCardInput {
  return {
    name: 'A2A TCK system under test',
    description:
      'An agent whose behaviour the conformance kits choose: by messageId prefix (TCK v1.0), by the text of the first message (ACTS), or run generically (TCK v0.3).',
    version: '1.0.0',
    provider: { organization: 'a2a-plugins', url: 'https://github.com/a2a-plugins' },
    capabilities: {
      streaming: options.streaming ?? true,
      pushNotifications: options.pushNotifications ?? true,
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
    ...options.security,
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

/** The common behaviours as TCK table rows, in their order (`tck-artifact-file-url` before `tck-artifact-file`). */
const tckCommon = (): [string, Behaviour][] => Object.entries(COMMON);

/** v1.0 kit behaviours by messageId prefix; longer prefixes first where one prefixes another. */
const behaviours = (options: { delayedCompleteMs: number }): [prefix: string, behaviour: Behaviour][] => [
  ...tckCommon(),
  ['tck-delayed-complete', delayedComplete(options.delayedCompleteMs)],
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

export interface TckAgentOptions {
  /** How long a v0.3 task stays WORKING before it asks for input (the 0.3 kit attaches streams meanwhile). */
  v03WorkingMs?: number;
  /** How long `tck-delayed-complete` stays WORKING. Default 2 s. */
  delayedCompleteMs?: number;
  /** How long ACTS's `tck-long-running` stays WORKING. Default 3 s. */
  longRunningMs?: number;
}

/**
 * The behaviour a v1.0 message asks for. The TCK names it by messageId prefix (its `tck_id`), ACTS by the text of the
 * first part of the task's first user message; a text naming a TCK behaviour works too. A `tck-*` name nobody
 * implements gets a behaviour that fails the task; no name at all, `undefined`.
 */
function chooseBehaviour(
  tck: [string, Behaviour][],
  acts: Record<string, Behaviour>,
  ctx: AgentContext,
): Behaviour | undefined {
  const id = ctx.message.messageId;
  const byId = tck.find(([prefix]) => id.startsWith(prefix))?.[1];
  if (byId) return byId;
  const name = actsBehaviourName(ctx);
  if (name === undefined) return undefined;
  return (
    (Object.hasOwn(acts, name) ? acts[name] : undefined) ??
    tck.find(([prefix]) => name.startsWith(prefix))?.[1] ??
    unknownBehaviour(name)
  );
}

/**
 * v1.0 requests: the behaviour the messageId prefix or the text names. v0.3 requests: the generic agent the 0.3 kit
 * expects (working with a status message, then input-required with a reply, again for every follow-up; never
 * completes).
 */
export function createTckExecutor(options: TckAgentOptions = {}): AgentExecutor {
  const workingMs = options.v03WorkingMs ?? 3000;
  const tck = behaviours({ delayedCompleteMs: options.delayedCompleteMs ?? 2000 });
  const acts = actsBehaviours({ longRunningMs: options.longRunningMs ?? 3000 });
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
      const behaviour = chooseBehaviour(tck, acts, ctx);
      if (behaviour) return behaviour(ctx);
      return ctx.complete(`Unhandled messageId prefix: ${ctx.message.messageId}`);
    },
  };
}
