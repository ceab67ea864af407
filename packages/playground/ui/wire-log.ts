import { h } from './dom.js';

export interface WireEntry {
  at: string;
  kind: 'request' | 'response' | 'sse' | 'error';
  method?: string;
  url?: string;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** SSE frames: the event's `id` (its sequence number). */
  id?: string;
}

const MAX_ENTRIES = 500;
const MAX_BODY = 64 * 1024;

/** Raw requests, responses and SSE frames, the newest {@link MAX_ENTRIES} kept; exportable as JSON. */
export class WireLog {
  private readonly entries: WireEntry[] = [];
  private dropped = 0;

  constructor(
    private readonly list: HTMLOListElement,
    private readonly summary: HTMLElement,
  ) {}

  add(entry: Omit<WireEntry, 'at'>): void {
    const body =
      entry.body && entry.body.length > MAX_BODY ? `${entry.body.slice(0, MAX_BODY)}… (truncated)` : entry.body;
    const full: WireEntry = { at: new Date().toISOString(), ...entry, ...(body !== undefined ? { body } : {}) };
    this.entries.push(full);
    this.list.append(render(full));
    while (this.entries.length > MAX_ENTRIES) {
      this.entries.shift();
      this.list.firstElementChild?.remove();
      this.dropped++;
    }
    this.summary.textContent = `${this.entries.length} entries${this.dropped ? ` (${this.dropped} older dropped)` : ''}`;
  }

  clear(): void {
    this.entries.length = 0;
    this.dropped = 0;
    this.list.replaceChildren();
    this.summary.textContent = '0 entries';
  }

  toJSON(): WireEntry[] {
    return [...this.entries];
  }

  /** Downloads the log as a JSON file. */
  export(): void {
    const blob = new Blob([JSON.stringify(this.entries, null, 2)], { type: 'application/json' });
    const link = h('a', { href: URL.createObjectURL(blob), download: `a2a-wire-log-${Date.now()}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}

function render(entry: WireEntry): HTMLLIElement {
  const head =
    entry.kind === 'request'
      ? `→ ${entry.method} ${entry.url}`
      : entry.kind === 'response'
        ? `← ${entry.status} ${entry.url}`
        : entry.kind === 'sse'
          ? `⇠ SSE${entry.id ? ` id ${entry.id}` : ''}`
          : `✕ ${entry.url ?? ''}`;
  const headers = entry.headers
    ? Object.entries(entry.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')
    : '';
  return h(
    'li',
    { class: `wire wire-${entry.kind}` },
    h('span', { class: 'wire-time' }, entry.at.slice(11, 23)),
    ' ',
    h('span', { class: 'wire-head' }, head),
    headers && h('pre', { class: 'wire-headers' }, headers),
    entry.body !== undefined && entry.body !== '' && h('pre', { class: 'wire-body' }, entry.body),
  );
}
