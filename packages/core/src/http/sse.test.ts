import { describe, expect, it } from 'vitest';
import { sseStream } from './sse.js';

/** A source whose frames arrive when the test pushes them (or fail when it fails them). */
function source() {
  const queue: IteratorResult<string>[] = [];
  const waiters: { resolve: (r: IteratorResult<string>) => void; reject: (e: unknown) => void }[] = [];
  let failure: unknown;
  const settle = () => {
    while (waiters.length && (queue.length || failure !== undefined)) {
      const waiter = waiters.shift() as (typeof waiters)[number];
      if (queue.length) waiter.resolve(queue.shift() as IteratorResult<string>);
      else waiter.reject(failure);
    }
  };
  const rest: AsyncIterator<string> = {
    next: () =>
      new Promise((resolve, reject) => {
        waiters.push({ resolve, reject });
        settle();
      }),
    return: async () => ({ done: true, value: undefined }),
  };
  return {
    rest,
    push: (...frames: string[]) => {
      for (const value of frames) queue.push({ done: false, value });
      settle();
    },
    end: () => {
      queue.push({ done: true, value: undefined });
      settle();
    },
    fail: (error: unknown) => {
      failure = error;
      settle();
    },
  };
}

const decoder = new TextDecoder();
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('sseStream', () => {
  it('sends the frames ready within one turn as one chunk, and a frame of a later turn as its own', async () => {
    const src = source();
    const stream = sseStream({ keepAliveMs: 60_000, first: 'data: 0\n\n', rest: src.rest, errorFrame: () => '' });
    const reader = stream.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 0\n\n');

    src.push('data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');

    const later = reader.read();
    await nextTurn();
    src.push('data: 4\n\n');
    await nextTurn();
    src.push('data: 5\n\n');
    src.end();
    expect(decoder.decode((await later).value)).toBe('data: 4\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: 5\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('closes after the frames that came with the end, and sends the frames before a failure with its error frame', async () => {
    const ended = source();
    const reader = sseStream({ keepAliveMs: 60_000, first: '', rest: ended.rest, errorFrame: () => '' }).getReader();
    await reader.read();
    ended.push('data: a\n\n');
    ended.end();
    expect(decoder.decode((await reader.read()).value)).toBe('data: a\n\n');
    expect((await reader.read()).done).toBe(true);

    const failing = source();
    const broken = sseStream({
      keepAliveMs: 60_000,
      first: '',
      rest: failing.rest,
      errorFrame: (error) => `event: error\ndata: ${String(error)}\n\n`,
    }).getReader();
    await broken.read();
    failing.push('data: b\n\n');
    failing.fail('boom');
    expect(decoder.decode((await broken.read()).value)).toBe('data: b\n\nevent: error\ndata: boom\n\n');
    expect((await broken.read()).done).toBe(true);
  });
});
