import { type A2AError, toA2AError } from '../errors.js';
import { merge } from '../merge.js';
import type { StreamResponse } from '../schemas/task.js';
import { seqOf } from '../store/stream-response.js';
import { eventStreamResponse } from './prepared.js';
import type { HeaderInit } from './responses.js';
import { dataFrame, errorEventFrame, SSE_HEADERS, type SseOptions } from './sse.js';

export interface StreamSettings {
  keepAliveMs: number;
  /** 'json' (default): errors before the first event are a normal JSON response. 'event-stream': one SSE frame. */
  earlyErrors: 'json' | 'event-stream';
  onError: (error: unknown) => void;
}

/** How a binding frames a stream: its settings, each event's JSON, an error's JSON, an error before the first event. */
export type FrameOptions = StreamSettings & {
  headers: HeaderInit;
  frame: (event: StreamResponse) => string;
  errorJson: (error: A2AError) => string;
  earlyError: (error: A2AError) => Response;
};

/**
 * Peeks at the first event before committing to SSE, so an early error is a plain error response; later errors are
 * an `event: error` frame and the stream closes. Not an async function: the first event's promise with the answer
 * made in its `then` (an async frame per stream less, docs/performance.md "Hot-path tricks").
 */
export function streamResponse(events: AsyncGenerator<StreamResponse>, options: FrameOptions): Promise<Response> {
  let first: Promise<IteratorResult<StreamResponse>>;
  try {
    first = events.next();
  } catch (error) {
    return Promise.resolve(earlyFailure(error, options));
  }
  return first.then(
    (result) =>
      eventStreamResponse(new EventFrames(events, options, result), {
        status: 200,
        headers: merge(SSE_HEADERS, options.headers),
      }),
    (error: unknown) => earlyFailure(error, options),
  );
}

/** The answer to a stream that failed before its first event. */
function earlyFailure(error: unknown, options: FrameOptions): Response {
  const a2a = report(error, options);
  if (options.earlyErrors === 'json') return options.earlyError(a2a);
  return new Response(dataFrame(options.errorJson(a2a)), {
    status: 200,
    headers: merge(SSE_HEADERS, options.headers),
  });
}

/** The engine's streams (`CallStream`) hand over an event that is already there synchronously. */
interface ReadyEvents {
  ready?(): StreamResponse | null | undefined;
}

/**
 * The SSE options and the iterator of the remaining frames in one object with its methods on the prototype: a
 * stream stays open for minutes, and a closure per method (with its context) cost ~0.5 KB per open stream
 * (docs/performance.md, "Scale").
 */
class EventFrames implements SseOptions, AsyncIterator<string> {
  readonly keepAliveMs: number;
  first: string;
  readonly #events: AsyncGenerator<StreamResponse>;
  readonly #options: FrameOptions;
  readonly #done: boolean;

  constructor(events: AsyncGenerator<StreamResponse>, options: FrameOptions, first: IteratorResult<StreamResponse>) {
    this.keepAliveMs = options.keepAliveMs;
    this.#events = events;
    this.#options = options;
    this.#done = first.done === true;
    this.first = first.done ? '' : this.#toFrame(first.value);
  }

  get rest(): AsyncIterator<string> {
    return this;
  }

  next(): Promise<IteratorResult<string>> {
    if (this.#done) return Promise.resolve({ value: undefined, done: true });
    // `then`, not an async function: one promise and fewer microtask hops per event.
    return this.#events
      .next()
      .then((next) =>
        next.done ? { value: undefined, done: true } : { value: this.#toFrame(next.value), done: false },
      );
  }

  ready(): string | null | undefined {
    if (this.#done) return null;
    const event = (this.#events as ReadyEvents).ready?.();
    return event == null ? event : this.#toFrame(event);
  }

  async return(): Promise<IteratorResult<string>> {
    await this.#events.return(undefined);
    return { value: undefined, done: true };
  }

  errorFrame(error: unknown): string {
    return errorEventFrame(this.#options.errorJson(report(error, this.#options)));
  }

  #toFrame(event: StreamResponse): string {
    return dataFrame(this.#options.frame(event), seqOf(event));
  }
}

function report(error: unknown, options: FrameOptions): A2AError {
  const a2a = toA2AError(error);
  if (a2a.type === 'Internal') options.onError(error);
  return a2a;
}
