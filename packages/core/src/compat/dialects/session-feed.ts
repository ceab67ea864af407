import type { SessionMessage } from './session-messages.js';
import type { SessionView } from './session-records.js';

// Live delivery for `GET /sessions/{id}/stream`: the messages the dialect's own `POST .../messages` calls produce on
// this handler, and the session's end, handed to the streams open on it. Everything else a stream sends (the
// session's messages so far) it reads from the tasks themselves.

export type FeedItem = { message: SessionMessage } | { ended: SessionView };

export class SessionFeed {
  private readonly listeners = new Map<string, Set<(item: FeedItem) => void>>();

  /** Calls `listener` for every item published for `key` until the returned function is called. */
  subscribe(key: string, listener: (item: FeedItem) => void): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  publish(key: string, item: FeedItem): void {
    for (const listener of this.listeners.get(key) ?? []) listener(item);
  }
}
