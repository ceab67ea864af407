import type { Conversation } from './conversation.js';
import type { AgentLink } from './link.js';
import type { PageElements } from './page-elements.js';
import type { Saved } from './saved-state.js';
import type { TimelinePane } from './timeline-pane.js';
import type { ProxyContext } from './wire-fetch.js';
import type { WireLog } from './wire-log.js';

/** What the server tells the page (the body's `data-config`). */
export interface Config {
  basePath: string;
  agentCardUrl: string;
  remote: boolean;
}

/** What the page's parts share: made once by main.ts and handed to each, so none of them imports another's state. */
export interface Page {
  readonly config: Config;
  readonly el: PageElements;
  readonly saved: Saved;
  readonly wire: WireLog;
  /** The `fetch` agent calls go through: logged, and through the proxy for another origin. */
  readonly wireFetch: typeof fetch;
  readonly conversation: Conversation;
  readonly timeline: TimelinePane;
  /** The agent the page is connected to: the proxy calls only the URLs its card names. */
  connected: ProxyContext;
  link: AgentLink | undefined;
  streaming: AbortController | undefined;
  /** The connected agent's name (its bubbles' heading) and a prompt from its card (the message box's placeholder). */
  agentName: string;
  example: string;
  /** Shows a line in the status bar. */
  say(text: string): void;
  /** Stores {@link saved} (trimmed) for a reload. */
  save(): void;
}
