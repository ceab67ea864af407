import type { AgentLink, StreamEvent } from './link.js';
import type { Page } from './page.js';
import { onError, onResult } from './results.js';
import { fetchEndedTask } from './task-refresh.js';

/**
 * Runs one stream (a send or a resubscription), replacing the previous one. `recover` may handle its error instead of
 * the timeline's error row (true: handled).
 */
export async function follow(
  page: Page,
  open: (link: AgentLink, onEvent: (e: StreamEvent) => void, signal: AbortSignal) => Promise<void>,
  recover?: (error: unknown) => Promise<boolean>,
): Promise<void> {
  if (!page.link) return;
  page.streaming?.abort();
  const controller = new AbortController();
  page.streaming = controller;
  page.say('Streaming…');
  try {
    await open(page.link, (e) => onResult(page, e.result, e.seq), controller.signal);
    if (page.streaming === controller) page.say('Stream ended');
  } catch (error) {
    if ((error as Error).name === 'AbortError' || !(await recover?.(error))) onError(page, error);
  } finally {
    if (page.streaming === controller) page.streaming = undefined;
  }
}

export async function cancel(page: Page): Promise<void> {
  if (!page.link || !page.saved.task) return;
  try {
    onResult(page, { task: await page.link.cancel(page.saved.task.id) });
    page.say('Canceled');
  } catch (error) {
    onError(page, error);
  }
}

export async function resubscribe(page: Page): Promise<void> {
  const { saved } = page;
  const task = saved.task;
  if (!task) return;
  page.timeline.add({ kind: 'note', text: `resubscribing${saved.lastSeq ? ` after #${saved.lastSeq}` : ''}` });
  // The task may have ended since the page last heard of it: the agent then refuses (UnsupportedOperation), and
  // its final state is one GetTask away.
  await follow(
    page,
    (l, onEvent, signal) => l.subscribe(task.id, onEvent, saved.lastSeq, signal),
    async () => {
      const ended = await fetchEndedTask(page, task.id, 'the task has ended: fetched it (GetTask) instead');
      if (ended) page.say('The task has ended');
      return ended;
    },
  );
}
