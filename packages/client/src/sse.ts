import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Deadline } from './deadline.js';
import { invalidResponse } from './errors.js';
import type { OperationName, TransportOptions } from './options.js';
import { tooLarge } from './read-capped.js';

const isEol = (byte: number | undefined) => byte === 10 || byte === 13;

/**
 * The bytes of the event still open after `chunk`, `open` of them carried over (those after the last blank line: two
 * line ends in a row, CRLF being one); `Infinity` when an event that ends in the chunk is over `max` with them. CR and
 * LF never occur inside a UTF-8 sequence, so the bytes need no decoding.
 */
export function openEventBytes(chunk: Uint8Array, open: number, before: number | undefined, max: number): number {
  let start = 0;
  let prev = before;
  for (let i = 0; i < chunk.length; i++) {
    const byte = chunk[i];
    if (isEol(byte) && isEol(prev) && !(prev === 13 && byte === 10)) {
      if (open + i - start > max) return Number.POSITIVE_INFINITY;
      open = 0;
      start = i + 1;
    }
    prev = byte;
  }
  return open + chunk.length - start;
}

/**
 * The SSE messages of a response body, as they arrive. Leaving the loop early (break, return, throw) cancels the body,
 * which releases the connection; so does aborting the request's signal (fetch then errors the body). An event (or a
 * line that never ends) past `maxEventBytes` is an A2AError before the parser gets it, so the parser never holds more;
 * each read waits under the stream's deadline.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  maxEventBytes: number,
  deadline: Deadline,
): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => void queue.push(message) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let done = false;
  let open = 0;
  let last: number | undefined;
  try {
    while (true) {
      const chunk = await deadline.wait(reader.read());
      if (!chunk.done) {
        open = openEventBytes(chunk.value, open, last, maxEventBytes);
        last = chunk.value[chunk.value.length - 1] ?? last;
        if (open > maxEventBytes) throw tooLarge('an SSE event', maxEventBytes);
      }
      if (chunk.done) {
        parser.feed(decoder.decode());
        // A last message without its blank line was cut off: the parser keeps it unfinished, as the spec says.
        yield* queue.splice(0);
        done = true;
        return;
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      yield* queue.splice(0);
    }
  } finally {
    if (!done) reader.cancel().catch(() => {}); // not awaited: a body that ignores cancel must not hold the caller
    try {
      reader.releaseLock();
    } catch {} // a read still pending (the deadline won the race) keeps the lock on older runtimes
  }
}

/** One SSE message whose data was JSON. */
export interface JsonMessage {
  id: string | undefined;
  event: string | undefined;
  json: unknown;
}

/** The SSE messages of a body with their data parsed as JSON; empty ones are skipped, `seen` gets each raw one. */
export async function* readSseJson(
  body: ReadableStream<Uint8Array>,
  seen: (message: EventSourceMessage) => void,
  maxEventBytes: number,
  deadline: Deadline,
): AsyncGenerator<JsonMessage> {
  for await (const message of readSse(body, maxEventBytes, deadline)) {
    seen(message);
    if (message.data === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(message.data);
    } catch (error) {
      throw invalidResponse('an SSE event that is not JSON', error);
    }
    yield { id: message.id, event: message.event, json };
  }
}

/** The `onFrame` hook bound to one stream (a no-op without it). */
export const frameReporter =
  (transport: TransportOptions, operation: OperationName, url: string) =>
  (message: EventSourceMessage): void =>
    transport.onFrame?.({ operation, url, id: message.id, event: message.event, data: message.data });
