import { h } from './dom.js';
import { stateBadge } from './states.js';
import type { Part, StreamResult } from './types.js';

/** One timeline row: an event (or an answer, or an error) of the current task. */
export interface Row {
  seq?: string;
  kind: 'task' | 'status' | 'artifact' | 'message' | 'error' | 'note';
  state?: string;
  text: string;
}

const partText = (p: Part): string =>
  p.text !== undefined
    ? p.text
    : p.data !== undefined
      ? JSON.stringify(p.data)
      : `[file ${p.filename ?? p.url ?? ''}${p.mediaType ? ` ${p.mediaType}` : ''}]`;

/** A message's parts, one string each: the chat shows them as separate paragraphs. */
export const partsList = (parts: Part[] | undefined): string[] => (parts ?? []).map(partText);

/** Parts as one string, exactly concatenated: an artifact's chunks (appended parts) read as the agent streamed them. */
export const partsText = (parts: Part[] | undefined): string => partsList(parts).join('');

export function toRow(result: StreamResult, seq?: string): Row {
  const at = seq !== undefined ? { seq } : {};
  if (result.statusUpdate) {
    const s = result.statusUpdate.status;
    return { ...at, kind: 'status', state: s.state, text: partsText(s.message?.parts) };
  }
  if (result.artifactUpdate) {
    const a = result.artifactUpdate;
    const flags = [a.append ? 'append' : 'new', a.lastChunk ? 'last chunk' : ''].filter(Boolean).join(', ');
    return {
      ...at,
      kind: 'artifact',
      text: `${a.artifact.name ?? a.artifact.artifactId} (${flags}): ${partsText(a.artifact.parts)}`,
    };
  }
  if (result.task) {
    const t = result.task;
    return { ...at, kind: 'task', state: t.status.state, text: `task ${t.id} ${partsText(t.status.message?.parts)}` };
  }
  if (result.message) return { ...at, kind: 'message', text: partsText(result.message.parts) };
  return { ...at, kind: 'note', text: JSON.stringify(result) };
}

const KIND_LABELS: Record<Row['kind'], string> = {
  task: 'task',
  status: 'status',
  artifact: 'artifact chunk',
  message: 'message',
  error: 'error',
  note: 'note',
};

/** A row: sequence number, kind and state (readable badge, then the wire value for developers), then the text. */
export function renderRow(row: Row): HTMLLIElement {
  return h(
    'li',
    { class: `event event-${row.kind}`, 'data-kind': row.kind, ...(row.state ? { 'data-state': row.state } : {}) },
    h('span', { class: 'seq', title: 'sequence number (SSE id)' }, row.seq !== undefined ? `#${row.seq}` : '—'),
    h('span', { class: 'kind' }, KIND_LABELS[row.kind]),
    row.state && stateBadge(row.state),
    row.state && h('code', { class: 'state' }, row.state),
    row.text && h('span', { class: 'text' }, row.text),
  );
}
