import { fetchCard } from './card-fetch.js';
import { cardExamples, cardName, renderCard } from './card-pane.js';
import { newSession } from './chat-form.js';
import { h, replace } from './dom.js';
import { ClientLink, describeError, type LinkOptions, type ProtocolVersion } from './link.js';
import type { Page } from './page.js';
import { asked, updateTaskControls } from './task-controls.js';
import { fetchEndedTask } from './task-refresh.js';
import { TERMINAL_STATES } from './types.js';
import { V03Link } from './v03-link.js';

/** The connect form's headers: the custom ones (one `Name: value` a line) and Authorization. */
function parseHeaders(lines: string, auth: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines.split('\n')) {
    const at = line.indexOf(':');
    if (line.trim() === '') continue;
    const name = line.slice(0, at).trim();
    if (at < 1 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new Error(`Not a header line: ${line}`);
    headers[name.toLowerCase()] = line.slice(at + 1).trim();
  }
  if (auth.trim()) headers.authorization = auth.trim();
  return headers;
}

/** Connects to the agent the form names: its card checked and shown, then a link for the chosen protocol version. */
export async function connect(page: Page): Promise<void> {
  const { el, saved } = page;
  el.connectError.textContent = '';
  // A task list is the answer of the agent it was asked of: its Open buttons would call whichever comes next.
  el.tasks.replaceChildren();
  el.tasksNote.textContent = '';
  page.streaming?.abort();
  page.link = undefined;
  showExamples(page, []);
  setChatEnabled(page, false);
  const version = el.version.value as ProtocolVersion;
  saved.cardUrl = el.cardUrl.value.trim();
  saved.version = version;
  saved.auth = el.auth.value;
  saved.customHeaders = el.customHeaders.value;
  page.save();
  page.say(`Connecting to ${saved.cardUrl}…`);
  let rendered = false;
  try {
    const headers = parseHeaders(el.customHeaders.value, el.auth.value);
    const report = await fetchCard({ basePath: page.config.basePath, wire: page.wire }, saved.cardUrl, headers);
    renderCard(el.card, report);
    rendered = true;
    const jsonRpc = report.interfaces.filter((i) => i.protocolBinding === 'JSONRPC');
    const chosen = jsonRpc.find((i) => i.protocolVersion.startsWith(version)) ?? jsonRpc[0];
    if (!chosen) throw new Error('The card offers no JSON-RPC interface the playground can call');
    const endpoint = new URL(chosen.url, report.url).href;
    page.connected = { cardUrl: report.url, userHeaders: Object.keys(headers) };
    const options: LinkOptions = {
      endpoint,
      headers,
      fetch: page.wireFetch,
      onFrame: (id, data) => page.wire.add({ kind: 'sse', ...(id ? { id } : {}), body: data }),
    };
    const link = version === '1.0' ? new ClientLink(report.card, options) : new V03Link(options);
    page.link = link;
    page.agentName = cardName(report.card) || 'Agent';
    // The chat, task and timeline on screen are another agent's: they start over (the same agent's stay).
    if (saved.session && saved.session.cardUrl !== report.url) newSession(page);
    saved.session = { cardUrl: report.url, agent: page.agentName };
    page.save();
    // Reloaded (or reconnected) while the agent worked: if the task ended meanwhile, its end is one GetTask away.
    const task = saved.task;
    if (task && !TERMINAL_STATES.has(task.state) && !asked(page)) {
      await fetchEndedTask(page, task.id, 'reconnected: the task had ended; fetched it (GetTask)');
    }
    const examples = cardExamples(report.card);
    page.example = examples[0] ?? '';
    showExamples(page, examples);
    setChatEnabled(page, true);
    el.tasksNote.textContent = link.supportsList ? '' : 'ListTasks is not part of A2A 0.3.';
    page.say(`Connected: A2A ${version} JSON-RPC at ${endpoint}`);
  } catch (error) {
    // No card came back: the pane must not keep showing the previous agent's.
    if (!rendered) replace(el.card, h('p', {}, 'Not connected.'));
    el.connectError.textContent = describeError(error);
    updateTaskControls(page);
    page.say('Not connected');
  }
}

function setChatEnabled(page: Page, on: boolean): void {
  const { el } = page;
  for (const c of [el.send, el.message, el.file, el.data, el.stream, el.newSession]) c.disabled = !on;
  (el.tasksForm.querySelector('button') as HTMLButtonElement).disabled = !on || !page.link?.supportsList;
  updateTaskControls(page);
}

/** The card's example prompts, as buttons that fill the message box. */
function showExamples(page: Page, examples: string[]): void {
  const { el } = page;
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
