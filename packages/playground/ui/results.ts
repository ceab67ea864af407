import { describeError } from './link.js';
import type { Page } from './page.js';
import { updateTaskControls } from './task-controls.js';
import { toRow } from './timeline.js';
import { type StreamResult, TERMINAL_STATES } from './types.js';

/** An answer or stream event: a timeline row, the current task and session, and the chat's new bubbles. */
export function onResult(page: Page, result: StreamResult, seq?: string): void {
  const { saved, conversation } = page;
  const row = toRow(result, seq);
  const task = result.task;
  const status = result.statusUpdate;
  const art = result.artifactUpdate;
  // A resubscription starts with the task as of the last event seen (same id): a snapshot, not a new event.
  if (task && seq !== undefined && seq === saved.lastSeq) row.text += ' (snapshot)';
  // The answer to an input-required question streams the task as it was first: the row above already says so.
  const repeated = task && saved.task?.id === task.id && saved.rows.at(-1)?.state === task.status.state;
  if (!repeated) page.timeline.add(row);
  if (seq !== undefined) saved.lastSeq = seq;
  if (task) {
    saved.task = { id: task.id, contextId: task.contextId, state: task.status.state };
    saved.contextId = task.contextId;
  } else if (status) {
    saved.task = { id: status.taskId, contextId: status.contextId, state: status.status.state };
    saved.contextId = status.contextId;
  } else if (art && saved.task?.id !== art.taskId) {
    saved.task = { id: art.taskId, contextId: art.contextId, state: saved.task?.state ?? 'TASK_STATE_WORKING' };
  }
  if (task) {
    // A whole task (an answer without streaming, a stream's first event, an opened or fetched task): its artifacts as
    // they are now (chunks missed across a reload filled in), then its status message unless already shown.
    for (const a of task.artifacts ?? []) conversation.showWholeArtifact(task.id, a);
    conversation.showAgentMessage(task.status.message, task.status.state, task.id);
  }
  if (status) conversation.showAgentMessage(status.status.message, status.status.state, status.taskId);
  const now = task ? { id: task.id, ...task.status } : status ? { id: status.taskId, ...status.status } : undefined;
  if (now && TERMINAL_STATES.has(now.state)) conversation.showFinalState(now.id, now.state);
  if (result.message) {
    if (result.message.contextId) saved.contextId = result.message.contextId;
    conversation.showAgentMessage(result.message);
  }
  if (art) conversation.showArtifact(art.taskId, art.artifact, art.append === true);
  updateTaskControls(page);
  page.save();
}

export function onError(page: Page, error: unknown): void {
  if ((error as Error).name === 'AbortError') return;
  const message = describeError(error);
  page.timeline.add({ kind: 'error', text: message });
  page.say(message);
  page.save();
}
