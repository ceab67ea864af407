import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { writeFrames } from './write-frames.js';

/** A response that records its writes; `writableNeedDrain` stays false. */
function recordingResponse() {
  const writes: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writableEnded: false,
    writableFinished: false,
    writableNeedDrain: false,
    write: (chunk: string) => writes.push(chunk) > 0,
    end: (chunk: string) => {
      if (chunk) writes.push(chunk);
      res.writableEnded = true;
    },
    flushHeaders: () => {},
  });
  return { res: res as unknown as ServerResponse, writes };
}

/** Frames pushed by the test, one `next()` at a time. */
function source() {
  const queue: string[] = [];
  let waiting: ((r: IteratorResult<string>) => void) | undefined;
  return {
    push(frame: string) {
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ value: frame, done: false });
      } else queue.push(frame);
    },
    end() {
      waiting?.({ value: undefined, done: true });
    },
    iterator: {
      next: () =>
        queue.length
          ? Promise.resolve({ value: queue.shift() as string, done: false })
          : new Promise<IteratorResult<string>>((resolve) => {
              waiting = resolve;
            }),
      return: async () => ({ value: undefined, done: true as const }),
    } as AsyncIterator<string>,
  };
}

const microtasks = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('writeFrames', () => {
  it("writes the first frame of a turn at once (not at the turn's end), and joins the frames that follow it", async () => {
    const { res, writes } = recordingResponse();
    const frames = source();
    const done = writeFrames(res, { keepAliveMs: 60_000, first: 'a\n\n', rest: frames.iterator, errorFrame: () => '' });
    await microtasks();
    expect(writes).toEqual(['a\n\n']); // before any other callback of this turn runs
    await nextTurn();
    frames.push('b\n\n'); // a paced event, alone in its turn: leaves at once
    await microtasks();
    expect(writes).toEqual(['a\n\n', 'b\n\n']);
    frames.push('c\n\n'); // a burst in the same turn: joined
    frames.push('d\n\n');
    await microtasks();
    await nextTurn();
    expect(writes).toEqual(['a\n\n', 'b\n\n', 'c\n\nd\n\n']);
    frames.end();
    await done;
  });

  it('takes frames that are already there without waiting, in order, and joins them with the ones next() gives', async () => {
    const { res, writes } = recordingResponse();
    const frames = source();
    const ready = ['b\n\n', 'c\n\n'];
    let nexts = 0;
    const rest: AsyncIterator<string> = {
      next: () => {
        nexts++;
        return frames.iterator.next();
      },
    };
    const done = writeFrames(res, {
      keepAliveMs: 60_000,
      first: 'a\n\n',
      rest,
      ready: () => ready.shift(),
      errorFrame: () => '',
    });
    frames.push('d\n\n');
    await microtasks();
    expect(nexts).toBe(2); // 'd', then waiting: 'b' and 'c' were taken without a next()
    frames.end();
    await done;
    expect(writes).toEqual(['a\n\n', 'b\n\nc\n\nd\n\n']);
  });

  it('ends without a next() when ready() says the frames are over', async () => {
    const { res, writes } = recordingResponse();
    const ready: (string | null)[] = ['b\n\n', null];
    let nexts = 0;
    const rest: AsyncIterator<string> = {
      next: () => {
        nexts++;
        return new Promise<IteratorResult<string>>(() => {}); // never answers: the writer must not wait on it
      },
    };
    await writeFrames(res, {
      keepAliveMs: 60_000,
      first: 'a\n\n',
      rest,
      ready: () => ready.shift(),
      errorFrame: () => '',
    });
    expect(nexts).toBe(0);
    expect(writes).toEqual(['a\n\n', 'b\n\n']);
  });

  it('sends keep-alive comments to a stream opened after others ended, while their timer runs and after it stopped', async () => {
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(check()).toBe(true);
    };
    const open = () => {
      const { res, writes } = recordingResponse();
      const frames = source();
      const done = writeFrames(res, { keepAliveMs: 5, first: 'a\n\n', rest: frames.iterator, errorFrame: () => '' });
      return { writes, frames, done };
    };
    const short = open(); // a stream over at once: its timer outlives it
    short.frames.end();
    await short.done;
    const kept = (writes: string[]) => writes.some((w) => w.includes(': keep-alive'));
    const second = open();
    await until(() => kept(second.writes));
    second.frames.end();
    await second.done;
    await new Promise((resolve) => setTimeout(resolve, 30)); // the timer's next tick finds no stream and stops
    const third = open();
    await until(() => kept(third.writes));
    third.frames.end();
    await third.done;
    expect(kept(short.writes)).toBe(false);
  });
});
