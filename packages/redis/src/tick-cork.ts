import type { Writable } from 'node:stream';
import type { Redis } from 'ioredis';

/**
 * Standalone mode's batching: the commands issued in one tick leave in one write. The first script of a tick corks
 * the connection's socket and a `process.nextTick` uncorks it, so the commands ioredis writes meanwhile (each its own
 * `stream.write`) go out as one `writev`. This replaces ioredis's auto-pipelining, which batches the same way but
 * builds a pipeline, a string of the batch and several promises per command: −24 % of the store's process CPU per
 * SendMessage (docs/performance.md, "Twenty-first session"). The Cluster mode keeps auto-pipelining (one socket per
 * node, grouped by slot).
 */
export class TickCork {
  private corked = false;

  constructor(private readonly client: Redis) {}

  /** Holds this tick's writes on the socket until the next `process.nextTick` (a no-op while not connected). */
  hold(): void {
    if (this.corked) return;
    // ioredis's socket: present once connected; commands issued before that wait in its offline queue.
    const stream = (this.client as unknown as { stream?: Writable }).stream;
    if (!stream || this.client.status !== 'ready') return;
    this.corked = true;
    stream.cork();
    process.nextTick(this.release, stream);
  }

  private readonly release = (stream: Writable): void => {
    this.corked = false;
    stream.uncork();
  };
}
