// The playground page: its parts made once and wired to the page's forms and buttons, then a first connect.
import { newSession, send } from './chat-form.js';
import { connect } from './connect.js';
import { Conversation } from './conversation.js';
import type { Config, Page } from './page.js';
import { findElements } from './page-elements.js';
import { loadSaved, storeSaved } from './saved-state.js';
import { cancel, resubscribe } from './task-actions.js';
import { updateTaskControls } from './task-controls.js';
import { listTasks } from './task-list.js';
import { TimelinePane } from './timeline-pane.js';
import { createWireFetch } from './wire-fetch.js';
import { WireLog } from './wire-log.js';

const config = JSON.parse(document.body.dataset.config ?? '{}') as Config;
const el = findElements();
const wire = new WireLog(el.wire, el.wireSummary);
const saved = loadSaved(new URL(config.agentCardUrl, location.href).href);

const page: Page = {
  config,
  el,
  saved,
  wire,
  wireFetch: createWireFetch(wire, `${config.basePath}/api/proxy`, () => page.connected),
  conversation: new Conversation(
    el.conversation,
    (entry) => saved.conversation.push(entry),
    () => page.agentName,
  ),
  timeline: new TimelinePane(el.timeline, el.timelineCount, saved),
  connected: { cardUrl: '', userHeaders: [] },
  link: undefined,
  streaming: undefined,
  agentName: 'Agent',
  example: '',
  say: (text) => {
    el.status.textContent = text;
  },
  save: () => storeSaved(saved),
};

el.cardUrl.value = saved.cardUrl;
el.version.value = saved.version;
el.auth.value = saved.auth;
el.customHeaders.value = saved.customHeaders;
page.timeline.restore();
for (const entry of saved.conversation) page.conversation.show(entry, false);
el.conversation.scrollTop = el.conversation.scrollHeight;
if (!config.remote) el.cardUrl.title = 'This playground reaches its own agent only (remote agents are off)';

el.connectForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void connect(page);
});
el.chatForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void send(page);
});
// Enter sends (as in a chat), Shift+Enter starts a new line; not while an input method is composing.
el.message.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
  e.preventDefault();
  el.chatForm.requestSubmit();
});
el.tasksForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void listTasks(page);
});
el.cancel.addEventListener('click', () => void cancel(page));
el.resubscribe.addEventListener('click', () => void resubscribe(page));
el.newSession.addEventListener('click', () => newSession(page));
el.exportWire.addEventListener('click', () => wire.export());
el.clearWire.addEventListener('click', () => wire.clear());
window.addEventListener('error', (e) => page.say(`Page error: ${e.message}`));

updateTaskControls(page);
void connect(page);
