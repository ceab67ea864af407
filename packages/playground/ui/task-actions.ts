import type { AgentLink, StreamEvent } from './link.js';
import type { Page } from './page.js';
import { onError, onResult } from './results.js';

/** Runs one stream (a send or a resubscription), replacing the previous one. */
export async function follow(
  page: Page,
  open: (link: AgentLink, onEvent: (e: StreamEvent) => void, signal: AbortSignal) => Promise<void>,
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
    onError(page, error);
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
  await follow(page, (l, onEvent, signal) => l.subscribe(task.id, onEvent, saved.lastSeq, signal));
}
