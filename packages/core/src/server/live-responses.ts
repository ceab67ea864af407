import type { StreamResponse } from '../schemas/task.js';
import type { TaskEventRecord } from '../store/task-store.js';
import { isInterrupted, isTerminal } from '../task-state.js';
import { toStreamResponse, withSeq } from './stream-response.js';
import type { Subscription } from './task-subscription.js';

/** A status event that leaves the task finished or waiting for the client: the agent's turn is over. */
export function endsTurn(record: TaskEventRecord): boolean {
  return record.event.kind === 'status' && (isTerminal(record.state) || isInterrupted(record.state));
}

const DONE: IteratorResult<StreamResponse> = { value: undefined, done: true };

/**
 * A task's live events after a snapshot, as stream responses, until its turn ends (delegated to with `yield*`).
 * An iterator object rather than an async generator: a stream waits in it for minutes, and a suspended generator
 * with its registers and queue cost ~0.3 KB more per open stream (docs/performance.md, "Scale").
 */
export class LiveResponses implements AsyncIterableIterator<StreamResponse> {
  readonly #subscription: Subscription;
  #done: boolean;

  /** `finished`: the snapshot already shows a finished task, so nothing follows it. */
  constructor(subscription: Subscription, finished: boolean) {
    this.#subscription = subscription;
    this.#done = finished;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamResponse>> {
    if (this.#done) return Promise.resolve(DONE);
    return this.#subscription.next().then((next) => this.#step(next));
  }

  #step(
    next: IteratorResult<TaskEventRecord>,
  ): IteratorResult<StreamResponse> | Promise<IteratorResult<StreamResponse>> {
    if (next.done) {
      this.#done = true;
      return DONE;
    }
    const record = next.value;
    if (endsTurn(record)) this.#done = true;
    const response = toStreamResponse(record);
    if (response) return { value: withSeq(response, record.seq), done: false };
    return this.next(); // an event with nothing to show (see toStreamResponse): read on
  }
}
