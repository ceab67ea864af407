import type { Entry } from './conversation.js';
import type { ProtocolVersion } from './link.js';
import type { Row } from './timeline.js';

/** What survives a reload (sessionStorage): the connection form, the session and the current task's timeline. */
export interface Saved {
  cardUrl: string;
  version: ProtocolVersion;
  auth: string;
  customHeaders: string;
  contextId?: string | undefined;
  task?: { id: string; contextId: string; state: string } | undefined;
  lastSeq?: string | undefined;
  /** The agent the session (chat, task, timeline) is with: its card URL and name. Another agent starts a new one. */
  session?: { cardUrl: string; agent: string } | undefined;
  rows: Row[];
  conversation: Entry[];
}

const STORAGE_KEY = 'a2a-playground';
/** The timeline rows and chat bubbles kept, on the page and in storage. */
export const MAX_ROWS = 300;

export function loadSaved(ownCardUrl: string): Saved {
  const fresh: Saved = { cardUrl: ownCardUrl, version: '1.0', auth: '', customHeaders: '', rows: [], conversation: [] };
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const loaded: Saved = raw ? { ...fresh, ...(JSON.parse(raw) as Partial<Saved>) } : fresh;
    // Entries saved by an older page ({ who, text }) read as one paragraph each.
    loaded.conversation = loaded.conversation.map((e) => {
      const old = e as Partial<Entry> & { text?: string };
      return Array.isArray(old.parts)
        ? e
        : { role: old.who === 'You' ? 'user' : 'agent', who: old.who ?? 'Agent', parts: [old.text ?? ''] };
    });
    return loaded;
  } catch {
    return fresh;
  }
}

export function storeSaved(saved: Saved): void {
  saved.rows = saved.rows.slice(-MAX_ROWS);
  saved.conversation = saved.conversation.slice(-MAX_ROWS);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(saved));
  } catch {
    // storage full or disabled: the page works without it
  }
}
