import { describe, expect, it } from 'vitest';
import type { StreamResponse } from '../schemas/task.js';
import { AsyncQueue } from '../store/async-queue.js';
import { seqOf } from '../store/stream-response.js';
import type { TaskEventRecord } from '../store/task-store.js';
import { CallStream, type StreamOpening } from './call-stream.js';
import type { Subscription } from './task-subscription.js';

const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' as const } };
const record = (seq: number, state: 'TASK_STATE_WORKING' | 'TASK_STATE_COMPLETED'): TaskEventRecord => ({
  taskId: 't',
  contextId: 'c',
  seq,
  state,
  event: { kind: 'status', status: { state } },
});

/** A subscription over a queue the test feeds, and the stream's releases of it. */
function setup(opening: Partial<StreamOpening> = {}) {
  const queue = new AsyncQueue<TaskEventRecord>();
  const subscription: Subscription = {
    next: () => queue.next(),
    ready: () => queue.take(),
    close: () => void queue.return(),
  };
  const released: Subscription[] = [];
  let opened = 0;
  const stream = new CallStream(
    async () => {
      opened++;
      return { subscription, first: [{ task } as StreamResponse], finished: false, ...opening };
    },
    (s) => released.push(s),
  );
  return { queue, subscription, released, stream, opens: () => opened };
}

describe('CallStream', () => {
  it('answers the first responses, then live events until one ends the turn, and releases once', async () => {
    const { queue, subscription, released, stream } = setup();
    queue.push(record(2, 'TASK_STATE_WORKING'));
    queue.push(record(3, 'TASK_STATE_COMPLETED'));
    queue.push(record(4, 'TASK_STATE_WORKING')); // after the turn ended: never read
    const seen: StreamResponse[] = [];
    for await (const response of stream) seen.push(response);
    expect(seen.map((r) => Object.keys(r)[0])).toEqual(['task', 'statusUpdate', 'statusUpdate']);
    expect(released).toEqual([subscription]);
    await stream.return();
    expect(released).toHaveLength(1);
  });

  it('opens on the first next(), not before; an opening error rejects that call and nothing is released', async () => {
    let opens = 0;
    const released: Subscription[] = [];
    const stream = new CallStream(
      async () => {
        opens++;
        throw new Error('not found');
      },
      (s) => released.push(s),
    );
    expect(opens).toBe(0);
    await expect(stream.next()).rejects.toThrow('not found');
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(opens).toBe(1);
    expect(released).toEqual([]);
  });

  it('return() before the first next() never opens', async () => {
    const { stream, released, opens } = setup();
    expect(await stream.return()).toEqual({ value: undefined, done: true });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(opens()).toBe(0);
    expect(released).toEqual([]);
  });

  it('return() while a next() waits for a live event ends the stream at once', async () => {
    const { stream, released, subscription } = setup();
    expect((await stream.next()).done).toBe(false); // the snapshot
    const waiting = stream.next();
    await stream.return();
    expect(released).toEqual([subscription]);
    expect(await waiting).toEqual({ value: undefined, done: true });
  });

  it('return() while opening releases the subscription the opening made', async () => {
    const { stream, released, subscription } = setup();
    const first = stream.next();
    await stream.return();
    expect(await first).toEqual({ value: undefined, done: true });
    expect(released).toEqual([subscription]);
  });

  it('ready() hands over what is already there, in order, until the turn ends, then ends the stream', async () => {
    const { queue, released, stream } = setup();
    expect(stream.ready()).toBeUndefined(); // not opened yet
    const opening = stream.next();
    expect(stream.ready()).toBeUndefined(); // opening: not over
    expect(Object.keys((await opening).value)).toEqual(['task']);
    expect(stream.ready()).toBeUndefined(); // nothing buffered
    queue.push(record(2, 'TASK_STATE_WORKING'));
    queue.push(record(3, 'TASK_STATE_COMPLETED'));
    queue.push(record(4, 'TASK_STATE_WORKING')); // after the turn ended: never read
    const second = stream.ready() as StreamResponse;
    expect(second).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } });
    expect(seqOf(second)).toBe(2);
    expect(released).toEqual([]);
    expect(stream.ready()).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(stream.ready()).toBeNull(); // the turn ended: over, without a next()
    expect(released).toHaveLength(1);
    expect(stream.ready()).toBeNull();
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(released).toHaveLength(1);
  });

  it('a finished opening answers its first responses and ends without reading the subscription', async () => {
    const { stream, released, queue } = setup({ finished: true });
    queue.push(record(2, 'TASK_STATE_WORKING'));
    const seen: StreamResponse[] = [];
    for await (const response of stream) seen.push(response);
    expect(seen).toHaveLength(1);
    expect(released).toHaveLength(1);
  });
});
