import type { AgentContext, Message } from '@a2a/core';
import { CLIENT_PARSE_OPERATIONS, clientParseRequest, parseWithClient } from './acts-client-parse.js';
import { type Behaviour, COMMON, sleep } from './behaviours.js';

// The ACTS behaviour contract (ACTS spec §11; declared in acts/sut-behaviors.yaml at the repository root): the text of
// the first part of the task's first user message names what the agent does. The TCK's messageId prefixes are
// chosen in tck-agent.ts, before these.

/** A behaviour name: `tck-` and hyphen-joined words, read to the word's end (`tck-artifact-file-url` is not
 * `tck-artifact-file`), so a misspelt name is reported as unknown instead of running a shorter one. */
const NAME = /^tck-[a-z0-9]+(?:-[a-z0-9]+)*/;

/** The word a multi-turn conversation ends on (the corpus's last turn of CORE-MULTI-001, CORE-HIST-002 …). */
const MULTI_TURN_DONE = 'done';

const firstText = (message: Message | undefined): string => message?.parts[0]?.text?.trim() ?? '';

/** The behaviour a text names, if it names one. */
export const behaviourIn = (text: string): string | undefined => NAME.exec(text)?.[0];

/**
 * The behaviour of this turn: named by the message, or, for a continuation that names none (`here is more input`,
 * `done`), by the first user message of its task: the behaviour belongs to the task.
 */
export function actsBehaviourName(ctx: AgentContext): string | undefined {
  const named = behaviourIn(firstText(ctx.message));
  if (named) return named;
  const opening = ctx.task?.history?.find((m) => m.role === 'ROLE_USER');
  return opening ? behaviourIn(firstText(opening)) : undefined;
}

export interface ActsBehaviourOptions {
  /** How long `tck-long-running` stays WORKING. The corpus polls every 1-2 s and subscribes meanwhile. */
  longRunningMs: number;
}

/** `tck-client-parse`: the client's reading of `{operation, wire_payload}`, as a data artifact of a completed task. */
const clientParse: Behaviour = async (ctx) => {
  const request = ctx.message.parts.map((p) => clientParseRequest(p.data)).find((r) => r !== undefined);
  if (!request) return ctx.fail('tck-client-parse needs a data part {operation, wire_payload}');
  const parsed = await parseWithClient(request.operation, request.payload);
  if (parsed === undefined) {
    return ctx.fail(
      `tck-client-parse: unsupported operation '${request.operation}' (use ${CLIENT_PARSE_OPERATIONS.join(', ')})`,
    );
  }
  await ctx.artifact({ name: 'client-parse', parts: [{ data: parsed }] });
  await ctx.complete(`${request.operation} parsed`);
};

/** The 16 behaviours, by name (the ones the TCK also has come from COMMON, unchanged). */
export const actsBehaviours = (options: ActsBehaviourOptions): Record<string, Behaviour> => ({
  ...COMMON,
  // Leaves an artifact: CORE-EXEC-001 polls to COMPLETED and then expects one.
  'tck-long-running': async (ctx) => {
    await ctx.working('Working on it');
    await sleep(options.longRunningMs, ctx.signal);
    if (ctx.signal.aborted) return;
    await ctx.artifact({ name: 'long-running', text: 'Long-running result' });
    await ctx.complete('Long-running work finished');
  },
  // No status messages: they would join the history between the user's turns, which CORE-HIST-005 reads by index.
  'tck-multi-turn': async (ctx) => {
    await ctx.working();
    if (firstText(ctx.message).toLowerCase().startsWith(MULTI_TURN_DONE)) return ctx.complete();
    await ctx.status('TASK_STATE_INPUT_REQUIRED');
  },
  // WORKING until CancelTask, which core answers (CANCELED) without the agent; execute() returns at once so a
  // blocking send answers too.
  'tck-cancel': (ctx) => ctx.working('Working until canceled'),
  'tck-stream-basic': async (ctx) => {
    await ctx.working('Streaming started');
    await ctx.artifact({ name: 'streamed', text: 'Streamed content' });
    await ctx.complete('Stream complete');
  },
  'tck-stream-chunked': async (ctx) => {
    await ctx.working('Streaming started');
    const chunks = ['chunk one ', 'chunk two ', 'chunk three'];
    const artifactId = `${ctx.taskId}-chunked`;
    for (const [i, text] of chunks.entries()) {
      await ctx.artifact({ artifactId, name: 'chunked', text, append: i > 0, lastChunk: i === chunks.length - 1 });
    }
    await ctx.complete('Stream complete');
  },
  'tck-task-failure': (ctx) => ctx.fail('Task failed: the agent hit the error it was asked to hit'),
  'tck-client-parse': clientParse,
});

/** A `tck-*` name nobody implements fails the task: completing it would report a conformance never shown. */
export const unknownBehaviour =
  (name: string): Behaviour =>
  (ctx) =>
    ctx.fail(`Unknown behaviour '${name}': this agent implements no such tck-* prefix`);
