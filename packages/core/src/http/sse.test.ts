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
  // What the engine's streams answer (`CallStream.ready()`): a frame already queued, `null` once the end is queued,
  // `undefined` while nothing is there or a `next()` waits.
  const ready = (): string | null | undefined => {
    if (waiters.length || !queue.length) return undefined;
    const result = queue.shift() as IteratorResult<string>;
    return result.done ? null : result.value;
  };
  return {
    rest,
    ready,
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

  it('sends the first frame with those already there as one chunk, and closes a stream that is already over', async () => {
    const src = source();
    src.push('id: 2\ndata: {"n":2}\n\n', 'id: 3\ndata: {"n":3}\n\n');
    src.end();
    const reader = sseStream({
      keepAliveMs: 60_000,
      first: 'id: 1\ndata: {"n":1}\n\n',
      rest: src.rest,
      ready: src.ready,
      errorFrame: () => '',
    }).getReader();
    const chunk = decoder.decode((await reader.read()).value);
    expect(chunk).toBe('id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\nid: 3\ndata: {"n":3}\n\n');
    // Still separate events, each with its own id and data.
    expect(chunk.split('\n\n').filter(Boolean)).toEqual([
      'id: 1\ndata: {"n":1}',
      'id: 2\ndata: {"n":2}',
      'id: 3\ndata: {"n":3}',
    ]);
    expect((await reader.read()).done).toBe(true);
  });

  it("sends what is ready at once and does not hold a slow source's frame for the next one", async () => {
    const src = source();
    src.push('data: 1\n\n');
    const reader = sseStream({
      keepAliveMs: 60_000,
      first: 'data: 0\n\n',
      rest: src.rest,
      ready: src.ready,
      errorFrame: () => '',
    }).getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 0\n\ndata: 1\n\n');

    // Ready when the host asks: it leaves in that read, before the source has a next frame.
    src.push('data: 2\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: 2\n\n');

    // Not ready when the host asks: the read waits for it, and it leaves without waiting for another.
    const waited = reader.read();
    await nextTurn();
    src.push('data: 3\n\n');
    expect(decoder.decode((await waited).value)).toBe('data: 3\n\n');

    // Frames queued behind a waiting `next()` keep their order.
    const again = reader.read();
    await nextTurn();
    src.push('data: 4\n\n', 'data: 5\n\n');
    src.end();
    expect(decoder.decode((await again).value)).toBe('data: 4\n\ndata: 5\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('stops reading the source and releases it when the host cancels mid-burst', async () => {
    const src = source();
    src.push('data: 1\n\n');
    let returned = 0;
    let readyCalls = 0;
    const stream = sseStream({
      keepAliveMs: 5,
      first: 'data: 0\n\n',
      rest: {
        next: src.rest.next,
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      },
      ready: () => {
        readyCalls++;
        return src.ready();
      },
      errorFrame: () => '',
    });
    const reader = stream.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 0\n\ndata: 1\n\n');
    await reader.cancel();
    expect(returned).toBe(1);
    const callsAtCancel = readyCalls;
    src.push('data: 2\n\n', 'data: 3\n\n');
    await nextTurn(); // a keep-alive interval passes: nothing is enqueued into the cancelled stream (it would throw)
    await nextTurn();
    expect(readyCalls).toBe(callsAtCancel);
  });

  it('sends the frames taken before a failure of the source with its error frame', async () => {
    const src = source();
    src.push('data: 1\n\n');
    let calls = 0;
    const reader = sseStream({
      keepAliveMs: 60_000,
      first: 'data: 0\n\n',
      rest: src.rest,
      ready: () => {
        if (++calls === 2) throw new Error('boom');
        return src.ready();
      },
      errorFrame: (error) => `event: error\ndata: ${(error as Error).message}\n\n`,
    }).getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 0\n\ndata: 1\n\nevent: error\ndata: boom\n\n');
    expect((await reader.read()).done).toBe(true);
  });
});
