import type { TaskEventRecord } from '@a2a/core';
import { describe, expect, it } from 'vitest';
import { NotifyWatch } from '../src/notify-watch.js';

const record = (seq: number) => ({ taskId: 't', contextId: 'c', seq, state: 'TASK_STATE_WORKING' }) as TaskEventRecord;

describe('NotifyWatch', () => {
  it('vouches for the records after the lowest version a read returned while it was open', () => {
    const watch = new NotifyWatch(true);
    expect(watch.after(5)).toBeUndefined(); // no read finished yet
    watch.read(5);
    watch.add(record(6));
    watch.add(record(7));
    watch.read(6);
    expect(watch.after(5)?.map((r) => r.seq)).toEqual([6, 7]);
    expect(watch.after(6)?.map((r) => r.seq)).toEqual([7]);
    expect(watch.after(4)).toBeUndefined(); // older than any read: events before 6 may have been missed
  });

  it('sends its subscribers to the log when a notification carried no record, or LISTEN was down or lost', () => {
    const headOnly = new NotifyWatch(true);
    headOnly.read(1);
    headOnly.add(undefined);
    expect(headOnly.after(1)).toBeUndefined();
    const notListening = new NotifyWatch(false);
    notListening.read(1);
    expect(notListening.after(1)).toBeUndefined();
    const lost = new NotifyWatch(true);
    lost.read(1);
    lost.break();
    expect(lost.after(1)).toBeUndefined();
  });
});
