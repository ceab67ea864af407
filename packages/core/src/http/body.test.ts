import { describe, expect, it } from 'vitest';
import { isA2AError } from '../errors.js';
import { readBodyBytes, readCapped } from './body.js';

const bytes = (n: number, fill = 120) => new Uint8Array(n).fill(fill);

/** A stream of the given chunks that records whether it was cancelled and how many chunks were pulled. */
function chunked(chunks: Uint8Array[]) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[seen.pulled++];
      if (next) controller.enqueue(next);
      else controller.close();
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

describe('readCapped (the one bounded body reader)', () => {
  it('joins the chunks of a body within the limit; no stream is an empty body', async () => {
    const { stream, seen } = chunked([bytes(3, 1), bytes(4, 2)]);
    expect(Array.from((await readCapped(stream, 7)) ?? [])).toEqual([1, 1, 1, 2, 2, 2, 2]);
    expect(seen.cancelled).toBe(false);
    expect(await readCapped(null, 0)).toEqual(new Uint8Array());
  });

  it('answers undefined past the limit, reads no further and cancels the stream', async () => {
    const { stream, seen } = chunked([bytes(4), bytes(4), bytes(4), bytes(4)]);
    expect(await readCapped(stream, 7)).toBeUndefined();
    await Promise.resolve(); // the cancel is not awaited
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(4);
  });
});

describe('readCapped with a signal', () => {
  it('rejects with the reason as soon as the signal aborts, while a chunk is awaited, and cancels the stream', async () => {
    let cancelled = false;
    const never = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(bytes(2)),
      cancel: () => {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const read = readCapped(never, 100, controller.signal);
    controller.abort(new Error('gave up'));
    await expect(read).rejects.toThrow('gave up');
    await Promise.resolve();
    expect(cancelled).toBe(true);
  });

  it('reads to the end and past the limit as without one; a failing stream rejects with its error', async () => {
    const signal = new AbortController().signal;
    expect(Array.from((await readCapped(chunked([bytes(3, 1)]).stream, 7, signal)) ?? [])).toEqual([1, 1, 1]);
    expect(await readCapped(chunked([bytes(4), bytes(4)]).stream, 7, signal)).toBeUndefined();
    const broken = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error('reset')) });
    await expect(readCapped(broken, 7, signal)).rejects.toThrow('reset');
  });
});

describe('readBodyBytes', () => {
  const post = (body: ReadableStream<Uint8Array>) =>
    new Request('http://h/', { method: 'POST', body, duplex: 'half' } as RequestInit);

  it('refuses a streamed body (no content-length) past the limit with PayloadTooLarge naming the limit', async () => {
    const { stream, seen } = chunked([bytes(600), bytes(600)]);
    const error = await readBodyBytes(post(stream), 1000).catch((e: unknown) => e);
    expect(isA2AError(error) && error.type).toBe('PayloadTooLarge');
    expect((error as Error).message).toBe('Request body exceeds the limit of 1000 bytes');
    expect((error as { metadata?: unknown }).metadata).toEqual({ limit: '1000' });
    await Promise.resolve();
    expect(seen.cancelled).toBe(true);
  });

  it('reads a streamed body within the limit', async () => {
    const { stream } = chunked([bytes(600), bytes(400)]);
    expect((await readBodyBytes(post(stream), 1000)).byteLength).toBe(1000);
  });
});
