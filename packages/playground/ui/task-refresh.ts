import type { Page } from './page.js';
import { onResult } from './results.js';
import { TERMINAL_STATES } from './types.js';

/**
 * When the task has ended, shows it as the agent has it (GetTask) and answers true: its final state, its artifacts
 * whole (chunks the page missed filled in) and its status message, after a note saying `why`. Otherwise (still
 * running, or GetTask failed) false, and nothing shown: Resubscribe then resumes from the last event seen, without a
 * gap or a duplicate, which a snapshot taken now would break.
 */
export async function fetchEndedTask(page: Page, id: string, why: string): Promise<boolean> {
  const task = await page.link?.getTask(id).catch(() => undefined);
  if (!task || !TERMINAL_STATES.has(task.status.state)) return false;
  page.timeline.add({ kind: 'note', text: why });
  onResult(page, { task });
  return true;
}
