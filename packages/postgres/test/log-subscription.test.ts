import type { TaskEventRecord } from '@a2a/core';
import { LogSubscription } from '@a2a/core/internal';
import { describe, expect, it } from 'vitest';

const record = (seq: number, state = 'TASK_STATE_WORKING'): TaskEventRecord =>
  ({
    taskId: 't',
    contextId: 'c',
    seq,
    state,
    event: { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: `${seq}` }] } },
  }) as TaskEventRecord;

/** A log whose reads see it as it was when they started (a query's snapshot) and answer when the test says. */
function slowLog(log: TaskEventRecord[]) {
  const reads: { afterSeq: number; release: () => void }[] = [];
  return {
    reads,
    read: (_id: string, afterSeq: number, limit: number) =>
      new Promise<TaskEventRecord[]>((resolve) => {
        const snapshot = log.filter((r) => r.seq > afterSeq).slice(0, limit);
        reads.push({ afterSeq, release: () => resolve(snapshot) });
      }),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('LogSubscription', () => {
  it('takes records offered during a read once the read reaches them: no second read', async () => {
    const log = [record(2)];
    const reader = slowLog(log);
    const sub = new LogSubscription('t', 1, reader, () => {});
    const first = sub.next();
    await settle();
    expect(reader.reads).toHaveLength(1);
    // Committed after the read's snapshot, carried by NOTIFY while it is in flight.
    log.push(record(3), record(4));
    sub.offer(record(4));
    sub.offer(record(3));
    reader.reads[0]?.release();
    expect((await first).value?.seq).toBe(2);
    const rest = [sub.next(), sub.next()];
    await settle();
    expect(reader.reads).toHaveLength(1);
    expect((await Promise.all(rest)).map((r) => r.value?.seq)).toEqual([3, 4]);
    await sub.return();
  });

  it('reads the log for a gap before held records, and never delivers out of order or twice', async () => {
    const log = [record(2)];
    const reader = slowLog(log);
    const sub = new LogSubscription('t', 1, reader, () => {});
    const first = sub.next();
    await settle();
    log.push(record(3), record(4), record(5, 'TASK_STATE_COMPLETED'));
    sub.offer(record(5, 'TASK_STATE_COMPLETED')); // 3 and 4 were not offered: a gap after the read
    sub.offer(record(2)); // also in the read: delivered once
    reader.reads[0]?.release();
    expect((await first).value?.seq).toBe(2);
    const next = sub.next();
    await settle();
    expect(reader.reads).toHaveLength(2);
    expect(reader.reads[1]?.afterSeq).toBe(2);
    reader.reads[1]?.release();
    const seen = [(await next).value?.seq, (await sub.next()).value?.seq, (await sub.next()).value?.seq];
    expect(seen).toEqual([3, 4, 5]);
    expect((await sub.next()).done).toBe(true); // ended at the terminal state
  });
});
