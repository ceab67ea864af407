import { h, replace } from './dom.js';
import { describeError } from './link.js';
import type { Page } from './page.js';
import { onError, onResult } from './results.js';
import { stateBadge } from './states.js';

/** Lists the agent's tasks (ListTasks, A2A 1.0) by the form's filters, each with a button that opens it. */
export async function listTasks(page: Page): Promise<void> {
  const { el, link } = page;
  if (!link) return;
  try {
    const filter = {
      ...(el.statusFilter.value ? { status: el.statusFilter.value } : {}),
      ...(el.contextFilter.value.trim() ? { contextId: el.contextFilter.value.trim() } : {}),
      pageSize: 50,
    };
    const result = await link.listTasks(filter);
    replace(
      el.tasks,
      result.tasks.map((t) =>
        h(
          'tr',
          {},
          h('td', { title: t.id }, h('code', {}, t.id)),
          h('td', {}, stateBadge(t.status.state)),
          h('td', { title: t.contextId }, h('code', {}, t.contextId)),
          h(
            'td',
            {},
            h(
              'button',
              { type: 'button', onClick: () => void open(page, t.id), 'aria-label': `Open task ${t.id}` },
              'Open',
            ),
          ),
        ),
      ),
    );
    el.tasksNote.textContent = `${result.tasks.length} of ${result.totalSize ?? result.tasks.length} tasks`;
  } catch (error) {
    el.tasksNote.textContent = describeError(error);
  }
}

/** Shows a listed task: its timeline starts over from the task as it is now. */
async function open(page: Page, id: string): Promise<void> {
  if (!page.link) return;
  try {
    const task = await page.link.getTask(id);
    page.streaming?.abort();
    page.timeline.clear();
    page.saved.lastSeq = undefined;
    onResult(page, { task });
  } catch (error) {
    onError(page, error);
  }
}
