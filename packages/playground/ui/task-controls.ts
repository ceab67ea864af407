import { h, replace } from './dom.js';
import type { Page } from './page.js';
import { stateBadge } from './states.js';
import { TERMINAL_STATES } from './types.js';

/** Whether the current task waits for the user (their next message continues it). */
export const asked = (page: Page): boolean =>
  page.saved.task?.state === 'TASK_STATE_INPUT_REQUIRED' || page.saved.task?.state === 'TASK_STATE_AUTH_REQUIRED';

/** The session and task lines, the task buttons and the message box's prompt, as the connection and task now are. */
export function updateTaskControls(page: Page): void {
  const { el, saved, link, agentName } = page;
  const task = saved.task;
  // Not connected, the chat and task on screen are another connection's: said so, and shown dimmed.
  const previous = !link && saved.session && (task || saved.conversation.length > 0) ? saved.session.agent : undefined;
  for (const pane of [el.conversation, el.taskInfo, el.timeline])
    pane.classList.toggle('previous', previous !== undefined);
  el.session.textContent = previous
    ? `Not connected: this chat and task are from your session with ${previous}`
    : saved.contextId
      ? `Session (contextId): ${saved.contextId}`
      : 'New session';
  if (task) {
    replace(
      el.taskInfo,
      'Task ',
      h('code', {}, task.id),
      ': ',
      stateBadge(task.state),
      asked(page) && ' — your next message answers it',
    );
  } else el.taskInfo.textContent = 'No task yet';
  // An ended task has nothing to cancel or subscribe to (the agent would refuse both).
  el.cancel.disabled = !link || !task || TERMINAL_STATES.has(task.state);
  el.resubscribe.disabled = el.cancel.disabled;
  el.message.placeholder = !link
    ? 'Connect to an agent to chat'
    : asked(page)
      ? `Your answer to ${agentName}`
      : page.example || `Message ${agentName}`;
}
