import type { StreamResponse } from '../schemas/task.js';
import { toStreamResponse, withSeq } from '../store/stream-response.js';
import type { TaskEventRecord } from '../store/task-store.js';
import { isInterrupted, isTerminal } from '../task-state.js';
import type { Subscription } from './task-subscription.js';

/** A status event that leaves the task finished or waiting for the client: the agent's turn is over. */
export function endsTurn(record: TaskEventRecord): boolean {
  return record.event.kind === 'status' && (isTerminal(record.state) || isInterrupted(record.state));
}

/** How a streaming call begins, once it has opened: what it answers first, then its task's live events. */
export interface StreamOpening {
  /** Closed by the stream when it ends, however it ends, and then handed to `release` (once). */
  subscription: Subscription;
  /** The responses before the live events: a snapshot, a replay, or the agent's direct message. */
  first: StreamResponse[];
  /** Nothing follows `first`: a finished task, or a message answer. */
  finished: boolean;
}

const DONE: IteratorResult<StreamResponse> = { value: undefined, done: true };

/**
 * A streaming call's responses (SendStreamingMessage, SubscribeToTask): it opens on the first `next()` (an error
 * then rejects that call, as a generator's body would throw), answers its first responses, then the task's live
 * events until the turn ends. An iterator object rather than an async generator: a stream waits in it for minutes,
 * and a suspended generator keeps its arguments, registers, promises and request queue (~1 KB per open stream,
 * docs/performance.md "Scale"). Unlike a generator's, `return()` ends the stream at once, even while a `next()` waits.
 */
export class CallStream implements AsyncGenerator<StreamResponse> {
  #open: (() => Promise<StreamOpening>) | undefined;
  readonly #release: (subscription: Subscription) => void;
  #subscription: Subscription | undefined;
  #first: StreamResponse[] | undefined;
  /** The live events are still to be read (until an event ends the turn). */
  #following = false;
  #ended = false;

  constructor(open: () => Promise<StreamOpening>, release: (subscription: Subscription) => void) {
    this.#open = open;
    this.#release = release;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamResponse>> {
    const open = this.#open;
    if (open) {
      this.#open = undefined;
      return this.#opened(open());
    }
    const first = this.#first?.shift();
    if (first) return Promise.resolve({ value: first, done: false });
    if (!this.#following || !this.#subscription) return Promise.resolve(this.#end());
    // `then`, not an async method: one promise and fewer microtask hops per event.
    return this.#subscription.next().then(
      (next) => this.#live(next),
      (error: unknown) => {
        this.#end();
        throw error;
      },
    );
  }

  /**
   * The next response if it is already there (one of the first responses, or a live event the store has buffered),
   * synchronously; `null`: the stream is over (ended here, as `next()` would); `undefined`: call `next()`, which
   * waits or opens. A writer that keeps up with the agent reads a burst of events, and the end, without a promise
   * and a result object per event (docs/performance.md, "Hot-path tricks").
   */
  ready(): StreamResponse | null | undefined {
    // Not opened yet, or opening (`#first` is set once open, and cleared only by the end).
    if (this.#open || (this.#first === undefined && !this.#ended)) return undefined;
    const first = this.#first?.shift();
    if (first) return first;
    for (;;) {
      if (!this.#following || !this.#subscription) {
        this.#end();
        return null;
      }
      const record = this.#subscription.ready?.();
      if (record === undefined) return undefined;
      const response = this.#response(record);
      if (response) return response;
    }
  }

  return(): Promise<IteratorResult<StreamResponse>> {
    this.#open = undefined;
    return Promise.resolve(this.#end());
  }

  throw(error: unknown): Promise<IteratorResult<StreamResponse>> {
    this.#open = undefined;
    this.#end();
    return Promise.reject(error);
  }

  async #opened(opening: Promise<StreamOpening>): Promise<IteratorResult<StreamResponse>> {
    const { subscription, first, finished } = await opening;
    if (this.#ended) {
      subscription.close(); // returned while opening
      this.#release(subscription);
      return DONE;
    }
    this.#subscription = subscription;
    this.#first = first;
    this.#following = !finished;
    return this.next();
  }

  #live(
    next: IteratorResult<TaskEventRecord>,
  ): IteratorResult<StreamResponse> | Promise<IteratorResult<StreamResponse>> {
    if (next.done) return this.#end();
    const response = this.#response(next.value);
    if (response) return { value: response, done: false };
    return this.next(); // an event with nothing to show (see toStreamResponse): read on
  }

  /** A live record's response (`undefined`: nothing to show); the turn's last record ends the following. */
  #response(record: TaskEventRecord): StreamResponse | undefined {
    if (endsTurn(record)) this.#following = false;
    const response = toStreamResponse(record);
    return response && withSeq(response, record.seq);
  }

  /** Ends the stream: its subscription is closed and goes back to the handler, once. */
  #end(): IteratorResult<StreamResponse> {
    const subscription = this.#subscription;
    this.#ended = true;
    this.#subscription = undefined;
    this.#first = undefined;
    this.#following = false;
    if (subscription) {
      subscription.close();
      this.#release(subscription);
    }
    return DONE;
  }
}
