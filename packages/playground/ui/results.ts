import { describeError } from './link.js';
import type { Page } from './page.js';
import { updateTaskControls } from './task-controls.js';
import { toRow } from './timeline.js';
import type { StreamResult } from './types.js';

/** An answer or stream event: a timeline row, the current task and session, and the chat's new bubbles. */
export function onResult(page: Page, result: StreamResult, seq?: string): void {
  const { saved, conversation } = page;
  const row = toRow(result, seq);
  // A resubscription starts with the task as of the last event seen (same id): a snapshot, not a new event.
  if (result.task && seq !== undefined && seq === saved.lastSeq) row.text += ' (snapshot)';
  page.timeline.add(row);
  if (seq !== undefined) saved.lastSeq = seq;
  const task = result.task;
  const status = result.statusUpdate;
  const art = result.artifactUpdate;
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
    // A whole task (an answer without streaming, a stream's first event, an opened task): the artifacts not shown
    // yet, then its status message unless already shown.
    for (const a of task.artifacts ?? [])
      if (!conversation.hasArtifact(task.id, a.artifactId)) conversation.showArtifact(task.id, a, false);
    conversation.showAgentMessage(task.status.message, task.status.state);
  }
  if (status) conversation.showAgentMessage(status.status.message, status.status.state);
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
