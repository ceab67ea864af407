import type { AgentExecutor, Message } from '@a2a/core';
import { parseChunkPlan, streamChunks } from './paced-chunks.js';

/**
 * The bench echo agent (the same contract as the peer SDK's bench server), on the first text part T:
 * - `message:X` → one agent message `echo: X`;
 * - `stream:N` (N ≥ 3) → task SUBMITTED, WORKING, N−3 chunks of artifact `echo`, COMPLETED (N stream events);
 * - `input-required` → a task left INPUT_REQUIRED (waiting for the client: the idle-load scenario);
 * - anything else → a COMPLETED task with artifact `echo` = `echo: T`.
 * A messageId `bench-chunks-<count>-<intervalMs>` instead streams paced artifact chunks (see paced-chunks.ts).
 */
export const echoExecutor: AgentExecutor = {
  async execute(ctx) {
    const plan = parseChunkPlan(ctx.message.messageId);
    if (plan) return streamChunks(ctx, plan);
    const text = firstText(ctx.message);
    if (text.startsWith('message:')) return ctx.reply(`echo: ${text.slice('message:'.length)}`);
    if (text === 'input-required') return ctx.inputRequired('more?');
    const stream = /^stream:(\d+)$/.exec(text);
    if (stream) {
      const total = Math.max(3, Number(stream[1]));
      await ctx.submit();
      await ctx.working();
      for (let i = 0; i < total - 3; i++) {
        await ctx.artifact({
          artifactId: 'echo',
          name: 'echo',
          text: `chunk ${i}`,
          append: i > 0,
          lastChunk: i === total - 4,
        });
      }
      return ctx.complete();
    }
    await ctx.artifact({
      artifactId: 'echo',
      name: 'echo',
      text: `echo: ${text}`,
    });
    return ctx.complete();
  },
};

function firstText(message: Message): string {
  for (const part of message.parts) if (part.text !== undefined) return part.text;
  return '';
}

/** The echo agent's card (also read by scripts/per-request.mjs, which loads no core of its own). */
export const benchCard = {
  name: 'Bench Echo Agent',
  description: 'Echoes user text; used only for loopback performance measurements.',
  version: '1.0.0',
  provider: { organization: 'a2a bench', url: 'http://127.0.0.1/' },
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Echoes the user text back.',
      tags: ['bench'],
      examples: ['hello', 'stream:10', 'message:hi'],
    },
  ],
};
