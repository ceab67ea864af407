import type { AgentContext } from '@a2a/core';

/** `bench-chunks-<count>-<intervalMs>`: an agent that streams like an LLM (artifact chunks at a steady pace). */
export interface ChunkPlan {
  count: number;
  intervalMs: number;
}

const PATTERN = /^bench-chunks-(\d{1,6})-(\d{1,6})$/;
/** Bounds that keep a typo from holding a task open for days. */
const MAX_COUNT = 100_000;
const MAX_INTERVAL_MS = 60_000;

/** The plan a messageId asks for, or `undefined` when it is not a `bench-chunks-…` id (or out of bounds). */
export function parseChunkPlan(messageId: string): ChunkPlan | undefined {
  const match = PATTERN.exec(messageId);
  if (!match) return undefined;
  const count = Number(match[1]);
  const intervalMs = Number(match[2]);
  if (count < 1 || count > MAX_COUNT || intervalMs > MAX_INTERVAL_MS) return undefined;
  return { count, intervalMs };
}

/**
 * A chunk's text: `chunk <i> s=<scheduled> t=<published>`, both in ms since the epoch (fractional). The client
 * measures delivery from either: from `t` (publish → client) and from `s` (the agent's schedule → client: what a
 * saturated server adds by running the agent's timers late).
 */
export const publishTime = (): number => performance.timeOrigin + performance.now();
export const chunkText = (index: number, scheduled: number, at: number): string =>
  `chunk ${index} s=${scheduled.toFixed(3)} t=${at.toFixed(3)}`;
const STAMPS = /chunk \d+ s=([\d.]+) t=([\d.]+)/;
/** The times stamped in a chunk's text, found in the text alone or in any frame that carries it. */
export function chunkStamps(text: string): { scheduled: number; sent: number } | undefined {
  const match = STAMPS.exec(text);
  return match ? { scheduled: Number(match[1]), sent: Number(match[2]) } : undefined;
}

/**
 * WORKING, then `count` chunks of artifact `chunks` (appended, the last one `lastChunk`), one every `intervalMs` on
 * a fixed schedule (no drift when a write is slow), then COMPLETED. Stops when the task is canceled.
 */
export async function streamChunks(ctx: AgentContext, plan: ChunkPlan, wait = pause): Promise<void> {
  await ctx.working();
  const start = performance.now();
  for (let i = 0; i < plan.count; i++) {
    if (ctx.signal.aborted) return;
    const due = start + (i + 1) * plan.intervalMs;
    await wait(due - performance.now());
    await ctx.artifact({
      artifactId: 'chunks',
      name: 'chunks',
      text: chunkText(i, performance.timeOrigin + due, publishTime()),
      append: i > 0,
      lastChunk: i === plan.count - 1,
    });
  }
  await ctx.complete();
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
