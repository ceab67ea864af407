import { randomUUID } from 'node:crypto';
import {
  type Artifact,
  type Message,
  newTask,
  type Task,
  type TaskEvent,
  type TaskEventRecord,
  type TaskState,
} from '@a2a/core';

/**
 * Unique ids per test run: the suite never needs an empty backend, so a store may share one database between all its
 * tests (and with other suites' leftovers). Odd characters on purpose: keys must be stored verbatim.
 */
export const uid = (label: string): string => `${label}-${randomUUID()} "q" \\ \u0000 é 😀`;

let last = 0;
/** Strictly increasing RFC 3339 timestamps (milliseconds), so "newest status first" means the same for every store. */
export function timestamp(): string {
  last = Math.max(last + 1, Date.now());
  return new Date(last).toISOString();
}

export const message = (text: string, taskId: string, contextId: string): Message => ({
  messageId: uid('m'),
  role: 'ROLE_USER',
  parts: [{ text }],
  taskId,
  contextId,
});

export function submittedTask(id = uid('task'), contextId = uid('ctx')): Task {
  return newTask(id, contextId, message('hello', id, contextId), timestamp());
}

export const status = (state: TaskState): TaskEvent => ({ kind: 'status', status: { state, timestamp: timestamp() } });
export const working = (): TaskEvent => status('TASK_STATE_WORKING');
export const completed = (): TaskEvent => status('TASK_STATE_COMPLETED');

export function artifactChunk(artifactId: string, text: string, append: boolean): TaskEvent {
  const artifact: Artifact = { artifactId, parts: [{ text }] };
  return { kind: 'artifact', artifact, append, lastChunk: false };
}

/** A mix of every event kind a live task takes, none of which finishes it. */
export function liveEvent(i: number, taskId: string, contextId: string): TaskEvent {
  switch (i % 4) {
    case 0:
      return artifactChunk('a', `chunk ${i}`, i > 0);
    case 1:
      return { kind: 'metadata', metadata: { [`k${i}`]: i } };
    case 2:
      return { kind: 'history', message: message(`follow-up ${i}`, taskId, contextId) };
    default:
      return artifactChunk(`b${i}`, `part ${i}`, false);
  }
}

/** The sequence numbers of records, for compact assertions. */
export const seqs = (records: readonly TaskEventRecord[]): number[] => records.map((r) => r.seq);

/** `from..to`, inclusive. */
export const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
