import type { StreamResponse, Task } from '@a2a/core';
import { isA2AError } from '@a2a/core/errors';
import { isTimeout } from './deadline.js';
import { invalidResponse } from './errors.js';
import type { ReconnectOptions, StreamOptions } from './options.js';
import type { WireEvent } from './wire.js';

const TERMINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);
const INTERRUPTED = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);

/**
 * Whether the agent sends nothing after this event: a message, a terminal task, or a status update that ends the
 * turn (terminal or interrupted). A task snapshot in an interrupted state is not final: it opens the stream of a
 * reply to an input-required task, or a subscription that waits for the next turn.
 */
export function isFinalEvent(event: StreamResponse): boolean {
  if ('message' in event && event.message) return true;
  if ('task' in event && event.task) return TERMINAL.has(event.task.status.state);
  if ('statusUpdate' in event && event.statusUpdate) {
    const state = event.statusUpdate.status.state;
    return TERMINAL.has(state) || INTERRUPTED.has(state);
  }
  return false;
}

const taskIdOf = (event: StreamResponse): string | undefined =>
  'task' in event && event.task
    ? event.task.id
    : 'statusUpdate' in event && event.statusUpdate
      ? event.statusUpdate.taskId
      : 'artifactUpdate' in event && event.artifactUpdate
        ? event.artifactUpdate.taskId
        : undefined;

/** Numeric SSE ids (our agents send log sequence numbers) let a resumed stream drop what it already delivered. */
const seq = (id: string | undefined): number | undefined => (id && /^\d{1,15}$/.test(id) ? Number(id) : undefined);

export interface StreamSource {
  /** Opens the first request. */
  open(options: StreamOptions): Promise<AsyncGenerator<WireEvent>>;
  /** Opens SubscribeToTask for `taskId` after `lastEventId`. */
  resubscribe(taskId: string, options: StreamOptions): Promise<AsyncGenerator<WireEvent>>;
  /** The task now, for a resumption the agent refuses because the task ended (and it cannot replay). */
  getTask(taskId: string, options: StreamOptions): Promise<Task>;
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });

/**
 * A stream of task events. Iterate it once (`for await`); the request is sent when iteration starts. Leaving the loop
 * or aborting the call's signal closes the connection. When the connection breaks before the task's last event, it
 * reconnects with SubscribeToTask and `Last-Event-ID`, so the loop sees every event once, in order.
 */
export class A2AStream implements AsyncIterable<StreamResponse> {
  /** The SSE id of the last event delivered (resume from it with `subscribeToTask(..., { lastEventId })`). */
  lastEventId: string | undefined;
  /** The task the events are about, once known. */
  taskId: string | undefined;
  /** Reconnections made so far. */
  reconnects = 0;
  private started = false;

  constructor(
    private readonly source: StreamSource,
    private readonly options: StreamOptions,
    private readonly reconnect: ReconnectOptions | false,
  ) {
    this.lastEventId = options.lastEventId;
  }

  [Symbol.asyncIterator](): AsyncGenerator<StreamResponse> {
    if (this.started) throw new TypeError('An A2AStream can be iterated only once');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<StreamResponse> {
    const { signal } = this.options;
    const attempts = this.reconnect === false ? 0 : (this.reconnect.attempts ?? 5);
    const baseDelay = this.reconnect === false ? 0 : (this.reconnect.delayMs ?? 250);
    const maxDelay = this.reconnect === false ? 0 : (this.reconnect.maxDelayMs ?? 5000);
    let events: AsyncGenerator<WireEvent> | undefined = await this.source.open(this.options);
    let failures = 0;
    let broken: unknown;
    while (true) {
      try {
        for await (const { id, event } of events ?? []) {
          const n = seq(id);
          const last = seq(this.lastEventId);
          if (n !== undefined && last !== undefined && n <= last) continue; // already delivered
          failures = 0;
          broken = undefined;
          if (id !== undefined) this.lastEventId = id;
          this.taskId ??= taskIdOf(event);
          yield event;
          if (isFinalEvent(event)) return;
        }
      } catch (error) {
        // A silent connection is a broken one (a half-open TCP connection, a stalled proxy): resume it.
        if (signal?.aborted || (isA2AError(error) && !isTimeout(error))) throw error;
        broken = error;
      }
      // The connection broke (or the body ended) before the task's last event.
      if (signal?.aborted) throw signal.reason;
      if (this.taskId === undefined || failures >= attempts) {
        throw broken ?? invalidResponse('the stream ended before the task reached a final state');
      }
      await sleep(Math.min(maxDelay, baseDelay * 2 ** failures), signal);
      failures++;
      this.reconnects++;
      const resume = { ...this.options, ...(this.lastEventId === undefined ? {} : { lastEventId: this.lastEventId }) };
      try {
        events = await this.source.resubscribe(this.taskId, resume);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (!isA2AError(error) || isTimeout(error)) {
          broken = error;
          events = undefined; // unreachable agent: try again after the next delay
          continue;
        }
        if (error.type !== 'UnsupportedOperation') throw error;
        // The task ended meanwhile and the agent cannot replay: its final state is all that is left to see.
        yield { task: await this.source.getTask(this.taskId, this.options) };
        return;
      }
    }
  }
}
