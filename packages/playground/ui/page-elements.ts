import { byId } from './dom.js';

/** The elements of index.html the page's code reads and fills, by id: a missing one fails at load, not on first use. */
export function findElements() {
  return {
    status: byId<HTMLParagraphElement>('status'),
    connectForm: byId<HTMLFormElement>('connect-form'),
    cardUrl: byId<HTMLInputElement>('card-url'),
    version: byId<HTMLSelectElement>('version'),
    auth: byId<HTMLInputElement>('auth'),
    customHeaders: byId<HTMLTextAreaElement>('custom-headers'),
    connectError: byId<HTMLParagraphElement>('connect-error'),
    card: byId<HTMLDivElement>('card'),
    session: byId<HTMLParagraphElement>('session'),
    conversation: byId<HTMLOListElement>('conversation'),
    examples: byId<HTMLDivElement>('examples'),
    chatForm: byId<HTMLFormElement>('chat-form'),
    message: byId<HTMLTextAreaElement>('message'),
    file: byId<HTMLInputElement>('file'),
    data: byId<HTMLTextAreaElement>('data'),
    stream: byId<HTMLInputElement>('stream'),
    send: byId<HTMLButtonElement>('send'),
    newSession: byId<HTMLButtonElement>('new-session'),
    taskInfo: byId<HTMLParagraphElement>('task-info'),
    cancel: byId<HTMLButtonElement>('cancel'),
    resubscribe: byId<HTMLButtonElement>('resubscribe'),
    timeline: byId<HTMLOListElement>('timeline'),
    timelineCount: byId<HTMLSpanElement>('timeline-count'),
    tasksForm: byId<HTMLFormElement>('tasks-form'),
    statusFilter: byId<HTMLSelectElement>('status-filter'),
    contextFilter: byId<HTMLInputElement>('context-filter'),
    tasks: byId<HTMLTableSectionElement>('tasks'),
    tasksNote: byId<HTMLParagraphElement>('tasks-note'),
    wire: byId<HTMLOListElement>('wire'),
    wireSummary: byId<HTMLSpanElement>('wire-summary'),
    exportWire: byId<HTMLButtonElement>('export-wire'),
    clearWire: byId<HTMLButtonElement>('clear-wire'),
  };
}

export type PageElements = ReturnType<typeof findElements>;
