import { type CardReport, cardExamples, cardName, renderCard } from './card-pane.js';
import { byId, h, replace } from './dom.js';
import {
  type AgentLink,
  ClientLink,
  describeError,
  type LinkOptions,
  type ProtocolVersion,
  type StreamEvent,
} from './link.js';
import { stateBadge } from './states.js';
import { partsList, partsText, type Row, renderRow, toRow } from './timeline.js';
import { type Artifact, type Message, type Part, type StreamResult, TERMINAL_STATES } from './types.js';
import { V03Link } from './v03-link.js';
import { createWireFetch, type ProxyContext } from './wire-fetch.js';
import { WireLog } from './wire-log.js';

interface Config {
  basePath: string;
  agentCardUrl: string;
  remote: boolean;
}

/** One chat bubble. */
interface Entry {
  role: 'user' | 'agent' | 'artifact';
  /** "You", the agent's name, or the artifact's name. */
  who: string;
  /** Paragraphs: a message's parts; an artifact has one, its chunks concatenated as streamed. */
  parts: string[];
  /** The task state a status message came with. */
  state?: string;
  /** An agent message's id (or a stand-in): each message is shown once, however often a task snapshot repeats it. */
  id?: string;
  /** An artifact's `taskId/artifactId`: appended chunks join its bubble, also after a reload. */
  key?: string;
}

/** What survives a reload (sessionStorage): the connection form, the session and the current task's timeline. */
interface Saved {
  cardUrl: string;
  version: ProtocolVersion;
  auth: string;
  customHeaders: string;
  contextId?: string | undefined;
  task?: { id: string; contextId: string; state: string } | undefined;
  lastSeq?: string | undefined;
  rows: Row[];
  conversation: Entry[];
}

const STORAGE_KEY = 'a2a-playground';
const MAX_ROWS = 300;
const config = JSON.parse(document.body.dataset.config ?? '{}') as Config;
const ownCardUrl = new URL(config.agentCardUrl, location.href).href;

const el = {
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

const wire = new WireLog(el.wire, el.wireSummary);
/** The agent the page is connected to: the proxy calls only the URLs its card names. */
let connected: ProxyContext = { cardUrl: '', userHeaders: [] };
const wireFetch = createWireFetch(wire, `${config.basePath}/api/proxy`, () => connected);
let link: AgentLink | undefined;
let streaming: AbortController | undefined;
/** The connected agent's name (its bubbles' heading) and a prompt from its card (the message box's placeholder). */
let agentName = 'Agent';
let example = '';
const saved: Saved = load();

function load(): Saved {
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

function save(): void {
  saved.rows = saved.rows.slice(-MAX_ROWS);
  saved.conversation = saved.conversation.slice(-MAX_ROWS);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(saved));
  } catch {
    // storage full or disabled: the page works without it
  }
}

const say = (text: string) => {
  el.status.textContent = text;
};

// ---- Connect --------------------------------------------------------------------------------------------------------

function parseHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of el.customHeaders.value.split('\n')) {
    const at = line.indexOf(':');
    if (line.trim() === '') continue;
    const name = line.slice(0, at).trim();
    if (at < 1 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new Error(`Not a header line: ${line}`);
    headers[name.toLowerCase()] = line.slice(at + 1).trim();
  }
  if (el.auth.value.trim()) headers.authorization = el.auth.value.trim();
  return headers;
}

async function postJson(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const url = `${config.basePath}${path}`;
  const text = JSON.stringify(body);
  wire.add({ kind: 'request', method: 'POST', url, body: text });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-playground-api': '1' },
    body: text,
  });
  const answer = await response.text();
  wire.add({ kind: 'response', status: response.status, url, body: answer });
  try {
    return { status: response.status, json: JSON.parse(answer) };
  } catch {
    return { status: response.status, json: { error: `The playground answered ${response.status}` } };
  }
}

/** Same-origin: the page fetches the card (and its JWKS) itself and the server checks it; else the server fetches. */
async function fetchCard(url: string, headers: Record<string, string>): Promise<CardReport> {
  const target = new URL(url, location.href);
  let answer: { status: number; json: unknown };
  if (target.origin === location.origin) {
    wire.add({ kind: 'request', method: 'GET', url: target.href, headers });
    const response = await fetch(target, { headers: { accept: 'application/json', ...headers } });
    const text = await response.text();
    wire.add({ kind: 'response', status: response.status, url: target.href, body: text });
    if (!response.ok) throw new Error(`The agent card request was answered ${response.status}`);
    let card: unknown;
    try {
      card = JSON.parse(text);
    } catch {
      throw new Error('The agent card is not JSON');
    }
    const jwks = await ownJwks(card, target);
    answer = await postJson('/api/card', { url: target.href, card, ...(jwks ? { jwks } : {}) });
  } else {
    answer = await postJson('/api/card', { url: target.href, headers });
  }
  const json = answer.json as CardReport & { error?: string };
  if (answer.status !== 200) throw new Error(json.error ?? `The playground answered ${answer.status}`);
  return json;
}

/** The JWKS a same-origin card's signature names (`jku`), fetched by the page. */
async function ownJwks(card: unknown, cardUrl: URL): Promise<unknown> {
  const signatures = (card as { signatures?: { protected?: unknown }[] })?.signatures;
  const header = Array.isArray(signatures) ? signatures[0]?.protected : undefined;
  if (typeof header !== 'string') return undefined;
  try {
    const jku = (JSON.parse(atob(header.replace(/-/g, '+').replace(/_/g, '/'))) as { jku?: string }).jku;
    if (!jku || new URL(jku, cardUrl).origin !== location.origin) return undefined;
    const response = await fetch(new URL(jku, cardUrl));
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

async function connect(): Promise<void> {
  el.connectError.textContent = '';
  streaming?.abort();
  link = undefined;
  showExamples([]);
  setChatEnabled(false);
  const version = el.version.value as ProtocolVersion;
  saved.cardUrl = el.cardUrl.value.trim();
  saved.version = version;
  saved.auth = el.auth.value;
  saved.customHeaders = el.customHeaders.value;
  save();
  say(`Connecting to ${saved.cardUrl}…`);
  try {
    const headers = parseHeaders();
    const report = await fetchCard(saved.cardUrl, headers);
    renderCard(el.card, report);
    const jsonRpc = report.interfaces.filter((i) => i.protocolBinding === 'JSONRPC');
    const chosen = jsonRpc.find((i) => i.protocolVersion.startsWith(version)) ?? jsonRpc[0];
    if (!chosen) throw new Error('The card offers no JSON-RPC interface the playground can call');
    const endpoint = new URL(chosen.url, report.url).href;
    connected = { cardUrl: report.url, userHeaders: Object.keys(headers) };
    const options: LinkOptions = {
      endpoint,
      headers,
      fetch: wireFetch,
      onFrame: (id, data) => wire.add({ kind: 'sse', ...(id ? { id } : {}), body: data }),
    };
    link = version === '1.0' ? new ClientLink(report.card, options) : new V03Link(options);
    agentName = cardName(report.card) || 'Agent';
    const examples = cardExamples(report.card);
    example = examples[0] ?? '';
    showExamples(examples);
    setChatEnabled(true);
    el.tasksNote.textContent = link.supportsList ? '' : 'ListTasks is not part of A2A 0.3.';
    say(`Connected: A2A ${version} JSON-RPC at ${endpoint}`);
  } catch (error) {
    el.connectError.textContent = describeError(error);
    say('Not connected');
  }
}

function setChatEnabled(on: boolean): void {
  for (const c of [el.send, el.message, el.file, el.data, el.stream, el.newSession]) c.disabled = !on;
  (el.tasksForm.querySelector('button') as HTMLButtonElement).disabled = !on || !link?.supportsList;
  updateTaskControls();
}

/** The card's example prompts, as buttons that fill the message box. */
function showExamples(examples: string[]): void {
  replace(
    el.examples,
    examples.length > 0 && h('span', { class: 'hint' }, 'Try'),
    examples.slice(0, 3).map((text) =>
      h(
        'button',
        {
          type: 'button',
          onClick: () => {
            el.message.value = text;
            el.message.focus();
          },
        },
        text,
      ),
    ),
  );
  el.examples.hidden = examples.length === 0;
}

// ---- Chat and timeline ----------------------------------------------------------------------------------------------

function addRow(row: Row): void {
  saved.rows.push(row);
  el.timeline.append(renderRow(row));
  while (el.timeline.childElementCount > MAX_ROWS) el.timeline.firstElementChild?.remove();
  countRows();
}

function clearTimeline(): void {
  saved.rows = [];
  el.timeline.replaceChildren();
  countRows();
}

function countRows(): void {
  const n = el.timeline.childElementCount;
  el.timelineCount.textContent = n ? `(${n})` : '';
}

/** The artifacts shown so far, by `taskId/artifactId`: their entry and the paragraph appended chunks extend. */
const artifactEntries = new Map<string, { entry: Entry; text: HTMLParagraphElement }>();
/** The agent messages shown so far (ids). */
const shownMessages = new Set<string>();

function renderEntry(entry: Entry): HTMLLIElement {
  const head =
    entry.role === 'user'
      ? h('span', { class: 'visually-hidden' }, 'You: ')
      : h(
          'div',
          { class: 'msg-head' },
          h('span', {}, entry.who),
          entry.role === 'artifact' && h('span', { class: 'tag' }, 'artifact'),
          entry.state && stateBadge(entry.state),
          h('span', { class: 'visually-hidden' }, ': '),
        );
  return h(
    'li',
    { class: `msg msg-${entry.role}` },
    head,
    entry.parts.map((p) => h('p', {}, p)),
  );
}

/** Shows an entry (and remembers it); the conversation follows the newest one unless the user scrolled up. */
function showEntry(entry: Entry, store = true): HTMLLIElement {
  if (store) saved.conversation.push(entry);
  if (entry.id) shownMessages.add(entry.id);
  const li = renderEntry(entry);
  const box = el.conversation;
  const following = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
  box.append(li);
  if (entry.key) artifactEntries.set(entry.key, { entry, text: li.querySelector('p') as HTMLParagraphElement });
  if (following) box.scrollTop = box.scrollHeight;
  return li;
}

/** An agent message (a status message or a direct answer), once: a task snapshot repeats its status message. */
function showAgentMessage(message: Message | undefined, state?: string): void {
  const parts = partsList(message?.parts).filter((p) => p !== '');
  if (!message || parts.length === 0) return;
  const id = message.messageId || `${message.taskId ?? ''}|${state ?? ''}|${parts.join('\n')}`;
  if (shownMessages.has(id)) return;
  showEntry({ role: 'agent', who: agentName, parts, id, ...(state ? { state } : {}) });
}

/** An artifact chunk: appended text joins its artifact's bubble exactly; a new artifact gets its own bubble. */
function showArtifact(taskId: string, artifact: Artifact, append: boolean): void {
  const key = `${taskId}/${artifact.artifactId}`;
  const text = partsText(artifact.parts);
  const shown = append ? artifactEntries.get(key) : undefined;
  if (shown) {
    shown.entry.parts[0] = (shown.entry.parts[0] ?? '') + text;
    shown.text.textContent = shown.entry.parts[0];
    return;
  }
  showEntry({ role: 'artifact', who: artifact.name || artifact.artifactId || 'Artifact', parts: [text], key });
}

function onResult(result: StreamResult, seq?: string): void {
  const row = toRow(result, seq);
  // A resubscription starts with the task as of the last event seen (same id): a snapshot, not a new event.
  if (result.task && seq !== undefined && seq === saved.lastSeq) row.text += ' (snapshot)';
  addRow(row);
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
      if (!artifactEntries.has(`${task.id}/${a.artifactId}`)) showArtifact(task.id, a, false);
    showAgentMessage(task.status.message, task.status.state);
  }
  if (status) showAgentMessage(status.status.message, status.status.state);
  if (result.message) {
    if (result.message.contextId) saved.contextId = result.message.contextId;
    showAgentMessage(result.message);
  }
  if (art) showArtifact(art.taskId, art.artifact, art.append === true);
  updateTaskControls();
  save();
}

function onError(error: unknown): void {
  if ((error as Error).name === 'AbortError') return;
  const message = describeError(error);
  addRow({ kind: 'error', text: message });
  say(message);
  save();
}

/** Whether the current task waits for the user (their next message continues it). */
const asked = (): boolean =>
  saved.task?.state === 'TASK_STATE_INPUT_REQUIRED' || saved.task?.state === 'TASK_STATE_AUTH_REQUIRED';

function updateTaskControls(): void {
  const task = saved.task;
  el.session.textContent = saved.contextId ? `Session (contextId): ${saved.contextId}` : 'New session';
  if (task) {
    replace(
      el.taskInfo,
      'Task ',
      h('code', {}, task.id),
      ': ',
      stateBadge(task.state),
      asked() && ' — your next message answers it',
    );
  } else el.taskInfo.textContent = 'No task yet';
  el.cancel.disabled = !link || !task || TERMINAL_STATES.has(task.state);
  el.resubscribe.disabled = !link || !task;
  el.message.placeholder = !link
    ? 'Connect to an agent to chat'
    : asked()
      ? `Your answer to ${agentName}`
      : example || `Message ${agentName}`;
}

async function fileParts(): Promise<Part[]> {
  const file = el.file.files?.[0];
  if (!file) return [];
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return [{ raw: btoa(binary), filename: file.name, mediaType: file.type || 'application/octet-stream' }];
}

async function send(): Promise<void> {
  if (!link) return;
  const text = el.message.value;
  let parts: Part[];
  try {
    parts = [...(text.trim() ? [{ text }] : []), ...(await fileParts())];
    if (el.data.value.trim()) parts.push({ data: JSON.parse(el.data.value) as unknown, mediaType: 'application/json' });
  } catch {
    say('The data part is not valid JSON');
    return;
  }
  if (parts.length === 0) {
    say('Type a message (or attach a file or data part) first');
    return;
  }
  const continuing = asked();
  const message: Message = {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts,
    ...(saved.contextId ? { contextId: saved.contextId } : {}),
    ...(continuing && saved.task ? { taskId: saved.task.id } : {}),
  };
  if (!continuing) {
    clearTimeline();
    saved.task = undefined;
    saved.lastSeq = undefined;
  }
  showEntry({ role: 'user', who: 'You', parts: partsList(parts) });
  el.message.value = '';
  el.data.value = '';
  el.file.value = '';
  el.message.focus(); // the next message (or the answer to a question) goes here, also after clicking Send
  save();
  updateTaskControls();
  if (el.stream.checked) await follow((l, onEvent, signal) => l.sendStreaming(message, onEvent, signal));
  else {
    try {
      onResult(await link.send(message));
      say('Answered');
    } catch (error) {
      onError(error);
    }
  }
}

/** Runs one stream (a send or a resubscription), replacing the previous one. */
async function follow(
  open: (link: AgentLink, onEvent: (e: StreamEvent) => void, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  if (!link) return;
  streaming?.abort();
  const controller = new AbortController();
  streaming = controller;
  say('Streaming…');
  try {
    await open(link, (e) => onResult(e.result, e.seq), controller.signal);
    if (streaming === controller) say('Stream ended');
  } catch (error) {
    onError(error);
  } finally {
    if (streaming === controller) streaming = undefined;
  }
}

async function cancel(): Promise<void> {
  if (!link || !saved.task) return;
  try {
    onResult({ task: await link.cancel(saved.task.id) });
    say('Canceled');
  } catch (error) {
    onError(error);
  }
}

async function resubscribe(): Promise<void> {
  const task = saved.task;
  if (!task) return;
  addRow({ kind: 'note', text: `resubscribing${saved.lastSeq ? ` after #${saved.lastSeq}` : ''}` });
  await follow((l, onEvent, signal) => l.subscribe(task.id, onEvent, saved.lastSeq, signal));
}

function newSession(): void {
  streaming?.abort();
  saved.contextId = undefined;
  saved.task = undefined;
  saved.lastSeq = undefined;
  saved.conversation = [];
  artifactEntries.clear();
  shownMessages.clear();
  el.conversation.replaceChildren();
  clearTimeline();
  updateTaskControls();
  save();
  say('New session');
}

// ---- Task list ------------------------------------------------------------------------------------------------------

async function listTasks(): Promise<void> {
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
            h('button', { type: 'button', onClick: () => void open(t.id), 'aria-label': `Open task ${t.id}` }, 'Open'),
          ),
        ),
      ),
    );
    el.tasksNote.textContent = `${result.tasks.length} of ${result.totalSize ?? result.tasks.length} tasks`;
  } catch (error) {
    el.tasksNote.textContent = describeError(error);
  }
}

async function open(id: string): Promise<void> {
  if (!link) return;
  try {
    const task = await link.getTask(id);
    streaming?.abort();
    clearTimeline();
    saved.lastSeq = undefined;
    onResult({ task });
  } catch (error) {
    onError(error);
  }
}

// ---- Wiring ---------------------------------------------------------------------------------------------------------

el.cardUrl.value = saved.cardUrl;
el.version.value = saved.version;
el.auth.value = saved.auth;
el.customHeaders.value = saved.customHeaders;
for (const row of saved.rows) el.timeline.append(renderRow(row));
countRows();
for (const entry of saved.conversation) showEntry(entry, false);
el.conversation.scrollTop = el.conversation.scrollHeight;
if (!config.remote) el.cardUrl.title = 'This playground reaches its own agent only (remote agents are off)';

el.connectForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void connect();
});
el.chatForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void send();
});
// Enter sends (as in a chat), Shift+Enter starts a new line; not while an input method is composing.
el.message.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
  e.preventDefault();
  el.chatForm.requestSubmit();
});
el.tasksForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void listTasks();
});
el.cancel.addEventListener('click', () => void cancel());
el.resubscribe.addEventListener('click', () => void resubscribe());
el.newSession.addEventListener('click', newSession);
el.exportWire.addEventListener('click', () => wire.export());
el.clearWire.addEventListener('click', () => wire.clear());
window.addEventListener('error', (e) => say(`Page error: ${e.message}`));

updateTaskControls();
void connect();
