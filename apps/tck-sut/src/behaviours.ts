import { setTimeout as delay } from 'node:timers/promises';
import type { AgentContext, ArtifactChunk, Part } from '@a2a/core';

// Building blocks shared by the TCK's behaviours (chosen by messageId prefix) and ACTS's (chosen by message text).

export type Behaviour = (ctx: AgentContext) => Promise<void>;

export const FILE_PART: Part = {
  raw: Buffer.from('tck').toString('base64'),
  filename: 'output.txt',
  mediaType: 'text/plain',
};
export const URL_PART: Part = {
  url: 'https://example.com/output.txt',
  filename: 'output.txt',
  mediaType: 'text/plain',
};

/** Resolves after `ms`, or at once when the task is canceled. */
export const sleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => {});

/** One artifact, then COMPLETED. */
export const artifactThenComplete =
  (artifact: ArtifactChunk): Behaviour =>
  async (ctx) => {
    await ctx.artifact(artifact);
    await ctx.complete();
  };

/** Working, one artifact, completed: the shape of most streaming behaviours. */
export const streamed =
  (artifact: ArtifactChunk): Behaviour =>
  async (ctx) => {
    await ctx.working();
    await ctx.artifact(artifact);
    await ctx.complete();
  };

/** The outcomes both kits name alike (`tck-complete-task` …), with the same answers on either. */
export const COMMON: Record<string, Behaviour> = {
  'tck-complete-task': (ctx) => ctx.complete('Hello from TCK'),
  'tck-input-required': (ctx) => ctx.inputRequired('Please provide more input'),
  // Open and waiting: AUTH_REQUIRED is an interrupted state, not a terminal one.
  'tck-auth-required': (ctx) => ctx.authRequired('Authentication required: sign in and send the credentials'),
  'tck-message-response': (ctx) => ctx.reply('Direct message response'),
  'tck-artifact-text': artifactThenComplete({ text: 'Generated text content' }),
  'tck-artifact-file-url': artifactThenComplete({ parts: [URL_PART] }),
  'tck-artifact-file': artifactThenComplete({ parts: [FILE_PART] }),
  'tck-artifact-data': artifactThenComplete({ parts: [{ data: { key: 'value', count: 42 } }] }),
  'tck-reject-task': (ctx) => ctx.reject('rejected'),
};
