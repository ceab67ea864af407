import { type A2AError, toA2AError } from '../errors.js';
import { merge } from '../merge.js';
import type { StreamResponse } from '../schemas/task.js';
import { seqOf } from '../server/stream-response.js';
import { eventStreamResponse } from './prepared.js';
import type { HeaderInit } from './responses.js';
import { dataFrame, errorEventFrame, SSE_HEADERS } from './sse.js';

export interface StreamSettings {
  keepAliveMs: number;
  /** 'json' (default): errors before the first event are a normal JSON response. 'event-stream': one SSE frame. */
  earlyErrors: 'json' | 'event-stream';
  onError: (error: unknown) => void;
}

/**
 * Peeks at the first event before committing to SSE, so an early error is a plain error response; later errors are
 * an `event: error` frame and the stream closes.
 */
export async function streamResponse(
  events: AsyncGenerator<StreamResponse>,
  options: StreamSettings & {
    headers: HeaderInit;
    frame: (event: StreamResponse) => string;
    errorJson: (error: A2AError) => string;
    earlyError: (error: A2AError) => Response;
  },
): Promise<Response> {
  const report = (error: unknown): A2AError => {
    const a2a = toA2AError(error);
    if (a2a.type === 'Internal') options.onError(error);
    return a2a;
  };
  let first: IteratorResult<StreamResponse>;
  try {
    first = await events.next();
  } catch (error) {
    const a2a = report(error);
    if (options.earlyErrors === 'json') return options.earlyError(a2a);
    return new Response(dataFrame(options.errorJson(a2a)), {
      status: 200,
      headers: merge(SSE_HEADERS, options.headers),
    });
  }
  const toFrame = (next: IteratorResult<StreamResponse>): IteratorResult<string> =>
    next.done
      ? { value: undefined, done: true }
      : { value: dataFrame(options.frame(next.value), seqOf(next.value)), done: false };
  const frames: AsyncIterator<string> = {
    // `then`, not an async function: one promise and fewer microtask hops per event.
    next: () => events.next().then(toFrame),
    return: async () => {
      await events.return(undefined);
      return { value: undefined, done: true };
    },
  };
  const sse = {
    keepAliveMs: options.keepAliveMs,
    first: first.done ? '' : dataFrame(options.frame(first.value), seqOf(first.value)),
    rest: first.done ? { next: async () => ({ value: undefined, done: true as const }) } : frames,
    errorFrame: (error: unknown) => errorEventFrame(options.errorJson(report(error))),
  };
  return eventStreamResponse(sse, { status: 200, headers: merge(SSE_HEADERS, options.headers) });
}
