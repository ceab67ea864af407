import { h } from './dom.js';
import { stateBadge } from './states.js';
import { partsList, partsText } from './timeline.js';
import type { Artifact, Message } from './types.js';

/** One chat bubble. */
export interface Entry {
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
  /** The task whose state {@link state} is: a state is shown once per task. */
  task?: string;
}

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

/** The chat's bubbles: the user's messages, the agent's messages (each once) and its artifacts (chunks joined). */
export class Conversation {
  /** The artifacts shown so far, by `taskId/artifactId`: their entry and the paragraph appended chunks extend. */
  private readonly artifactEntries = new Map<string, { entry: Entry; text: HTMLParagraphElement }>();
  /** The agent messages shown so far (ids). */
  private readonly shownMessages = new Set<string>();
  /** The task states shown on a bubble so far (`taskId|state`). */
  private readonly shownStates = new Set<string>();

  constructor(
    private readonly box: HTMLOListElement,
    /** Remembers a new entry, for a reload. */
    private readonly store: (entry: Entry) => void,
    /** The connected agent's name: its messages' heading. */
    private readonly agentName: () => string,
  ) {}

  /** Shows an entry (and remembers it); the conversation follows the newest one unless the user scrolled up. */
  show(entry: Entry, store = true): HTMLLIElement {
    if (store) this.store(entry);
    if (entry.id) this.shownMessages.add(entry.id);
    if (entry.task && entry.state) this.shownStates.add(`${entry.task}|${entry.state}`);
    const li = renderEntry(entry);
    const box = this.box;
    const following = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
    box.append(li);
    if (entry.key) this.artifactEntries.set(entry.key, { entry, text: li.querySelector('p') as HTMLParagraphElement });
    if (following) box.scrollTop = box.scrollHeight;
    return li;
  }

  /** An agent message (a status message or a direct answer), once: a task snapshot repeats its status message. */
  showAgentMessage(message: Message | undefined, state?: string, task?: string): void {
    const parts = partsList(message?.parts).filter((p) => p !== '');
    if (!message || parts.length === 0) return;
    const id = message.messageId || `${message.taskId ?? ''}|${state ?? ''}|${parts.join('\n')}`;
    if (this.shownMessages.has(id)) return;
    this.show({
      role: 'agent',
      who: this.agentName(),
      parts,
      id,
      ...(state ? { state } : {}),
      ...(task ? { task } : {}),
    });
  }

  /**
   * A task's final state, as a bubble of its own when no message came with it (a canceled task keeps the "Working"
   * message it had, or has none): the chat's last word on the task is then its real state.
   */
  showFinalState(task: string, state: string): void {
    if (this.shownStates.has(`${task}|${state}`)) return;
    this.show({ role: 'agent', who: this.agentName(), parts: [], state, task });
  }

  /** An artifact chunk: appended text joins its artifact's bubble exactly; a new artifact gets its own bubble. */
  showArtifact(taskId: string, artifact: Artifact, append: boolean): void {
    const key = `${taskId}/${artifact.artifactId}`;
    const text = partsText(artifact.parts);
    const shown = append ? this.artifactEntries.get(key) : undefined;
    if (shown) {
      shown.entry.parts[0] = (shown.entry.parts[0] ?? '') + text;
      shown.text.textContent = shown.entry.parts[0];
      return;
    }
    this.show({ role: 'artifact', who: artifact.name || artifact.artifactId || 'Artifact', parts: [text], key });
  }

  /** An artifact as a task snapshot has it, whole: its bubble's text replaced (chunks missed, say across a reload). */
  showWholeArtifact(taskId: string, artifact: Artifact): void {
    const shown = this.artifactEntries.get(`${taskId}/${artifact.artifactId}`);
    if (!shown) {
      this.showArtifact(taskId, artifact, false);
      return;
    }
    shown.entry.parts[0] = partsText(artifact.parts);
    shown.text.textContent = shown.entry.parts[0];
  }

  /** Empties the chat (a new session); what is stored is the caller's to clear. */
  clear(): void {
    this.artifactEntries.clear();
    this.shownMessages.clear();
    this.shownStates.clear();
    this.box.replaceChildren();
  }
}
