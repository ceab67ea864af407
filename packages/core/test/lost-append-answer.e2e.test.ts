import { describe, expect, it } from 'vitest';
import { A2AError, InMemoryTaskStore, type TaskEvent, type TaskEventRecord } from '../src/index.js';
import { card, startServer, userMessage } from './helpers.js';

/** A store whose chosen appends commit and then report the store unavailable, as a connection lost after COMMIT does. */
class LosingAnswersStore extends InMemoryTaskStore {
  readonly lose = new Set<string>();
  /** Every committed record (the in-memory log is dropped once a task is final). */
  readonly committed: TaskEventRecord[] = [];
  /** How many of the next log reads fail as the store unavailable. */
  failReads = 0;
  override async readEvents(taskId: string, afterSeq: number): Promise<TaskEventRecord[]> {
    if (this.failReads > 0) {
      this.failReads--;
      throw new A2AError('Unavailable', 'still reconnecting');
    }
    return super.readEvents(taskId, afterSeq);
  }
  override async append(taskId: string, expectedVersion: number, event: TaskEvent): Promise<TaskEventRecord> {
    const record = await super.append(taskId, expectedVersion, event);
    this.committed.push(record);
    const text = event.kind === 'artifact' ? event.artifact.parts.map((p) => ('text' in p ? p.text : '')).join('') : '';
    if (this.lose.delete(text)) throw new A2AError('Unavailable', 'connection lost after the write committed');
    return record;
  }
}

describe('an agent write whose answer was lost in an outage', () => {
  it.each([
    ['the retry finds it already committed', 0],
    // The log read that would tell cannot be made yet: the write is neither taken as landed nor written again at the
    // version after it (the next conflict asks again).
    ['the log cannot be read at the first conflict', 1],
  ])('is not written twice when %s', async (_, failReads) => {
    const store = new LosingAnswersStore();
    store.lose.add('chunk-1');
    store.failReads = failReads;
    const server = await startServer({
      agentCard: card,
      taskStore: store,
      executor: {
        async execute(ctx) {
          await ctx.working();
          await ctx.artifact({ artifactId: 'a', text: 'chunk-1' });
          await ctx.artifact({ artifactId: 'a', text: 'chunk-2', append: true });
          await ctx.complete('done');
        },
      },
    });
    try {
      const sent = await server.rpc('SendMessage', { message: userMessage('go') });
      const task = sent.body.result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts.map((p: { text: string }) => p.text)).toEqual(['chunk-1', 'chunk-2']);
      const log = store.committed.filter((r) => r.taskId === task.id);
      const chunks = log.filter((r) => r.event.kind === 'artifact');
      expect(chunks).toHaveLength(2);
      expect(log.map((r) => r.seq)).toEqual(log.map((_, i) => i + 2)); // gap-free after creation (version 1)
    } finally {
      await server.close();
    }
  });
});
