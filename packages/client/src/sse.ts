import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { invalidResponse } from './errors.js';
import type { OperationName, TransportOptions } from './options.js';

/**
 * The SSE messages of a response body, as they arrive. Leaving the loop early (break, return, throw) cancels the body,
 * which releases the connection; so does aborting the request's signal (fetch then errors the body).
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => void queue.push(message) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let done = false;
  try {
    while (true) {
      const chunk = await reader.read();
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
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
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
): AsyncGenerator<JsonMessage> {
  for await (const message of readSse(body)) {
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
