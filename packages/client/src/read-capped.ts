import type { Deadline } from './deadline.js';
import { invalidResponse } from './errors.js';

/** An A2AError for an answer past a size limit (the agent's fault: a client cannot read it safely). */
export const tooLarge = (what: string, limit: number) =>
  invalidResponse(`${what} larger than ${limit} bytes (the limit); the rest was not read`);

/**
 * The whole body as text, read under the call's deadline. Past `maxBytes` the read stops and the body is canceled,
 * which releases the connection, before the excess is held: a body that never ends costs at most one chunk more.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  deadline: Deadline,
): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  let done = false;
  try {
    while (true) {
      const chunk = await deadline.wait(reader.read());
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) throw tooLarge('a body', maxBytes);
      text += decoder.decode(chunk.value, { stream: true });
    }
    done = true;
  } finally {
    if (!done) reader.cancel().catch(() => {}); // not awaited: a body that ignores cancel must not hold the call
    try {
      reader.releaseLock();
    } catch {} // a read still pending (the deadline won the race) keeps the lock on older runtimes
  }
  return text + decoder.decode();
}
