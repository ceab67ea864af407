import type { Writable } from 'node:stream';
import type { Redis } from 'ioredis';

/**
 * Standalone mode's batching, a group commit on the connection: the commands issued while a batch is in flight (or
 * in one tick, when none is) leave together in one socket write once the batch's last reply is in. The socket is
 * corked meanwhile, so ioredis's writes (each command its own `stream.write`) gather in it and go out as one `writev`.
 * This is what ioredis's auto-pipelining does, less its pipeline objects, its string of the batch and its several
 * promises per command: about −20 % of the store's process CPU per SendMessage (docs/performance.md, "Twenty-first
 * session"). The Cluster mode keeps auto-pipelining (one socket per node, grouped by slot).
 */
export class CorkedBatches {
  /** The socket held corked, gathering the next batch. */
  private corked: Writable | undefined;
  /** The last command written into it: replies come in order, so its reply ends the batch. */
  private last: Promise<unknown> | undefined;
  private inFlight = false;

  constructor(private readonly client: Redis) {}

  /** Sends `command` (which writes to the client) in the next batch. */
  send<T>(command: () => Promise<T>): Promise<T> {
    // ioredis's socket: present once connected; commands issued before that wait in its offline queue.
    const stream = (this.client as unknown as { stream?: Writable }).stream;
    if (!stream || this.client.status !== 'ready') return command();
    if (this.corked !== stream) {
      stream.cork();
      this.corked = stream;
      if (!this.inFlight) process.nextTick(this.flush);
    }
    const sent = command();
    this.last = sent;
    return sent;
  }

  private readonly flush = (): void => {
    const stream = this.corked;
    const last = this.last;
    this.corked = undefined;
    this.last = undefined;
    if (!stream) return;
    stream.uncork();
    if (!last) return;
    this.inFlight = true;
    last.then(this.done, this.done);
  };

  private readonly done = (): void => {
    this.inFlight = false;
    if (this.corked) process.nextTick(this.flush);
  };
}
