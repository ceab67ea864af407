import { describe, expect, it } from 'vitest';
import { createA2AHandler, type Task } from '../src/index.js';
import { card } from './helpers.js';

const agentCard = { ...card, capabilities: { streaming: true } };
const message = (text: string, taskId?: string) => ({
  message: { messageId: `m-${text}`, role: 'ROLE_USER' as const, parts: [{ text }], ...(taskId && { taskId }) },
});

// A blocking SendMessage of a new task is told by its execution when the turn is over and answers with the task as
// the write that ended the turn left it (issue 39: no promise of the turn's own); the in-memory store keeps the
// engine's new task itself for such a call, so the answer must still be a copy of its own.

describe("a blocking SendMessage's answer", () => {
  it('is the task as the write that ended the turn left it, not what the agent wrote after that', async () => {
    const a2a = createA2AHandler({
      agentCard,
      executor: {
        execute: async (ctx) => {
          await ctx.working(); // (the call is waiting for the turn by now)
          void ctx.inputRequired('more?');
          // Lands synchronously too (the in-memory store), right after the turn ended.
          void ctx.setMetadata({ late: true });
        },
      },
    });
    const { task } = (await a2a.requestHandler.sendMessage(message('hi'), {})) as { task: Task };
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.metadata).toBeUndefined();
    expect((await a2a.requestHandler.store.get(task.id))?.task.metadata).toEqual({ late: true });
  });

  it('is not changed by later events of its task, which the store applies to the task it kept', async () => {
    const a2a = createA2AHandler({
      agentCard,
      executor: {
        execute: async (ctx) => {
          if (!ctx.task) return ctx.inputRequired('more?');
          await ctx.artifact({ artifactId: 'a', text: 'later' });
          return ctx.complete('done');
        },
      },
    });
    const { task: first } = (await a2a.requestHandler.sendMessage(message('hi'), {})) as { task: Task };
    const seen = JSON.stringify(first);
    const { task: second } = (await a2a.requestHandler.sendMessage(message('again', first.id), {})) as { task: Task };
    expect(second.status.state).toBe('TASK_STATE_COMPLETED');
    expect(second.history).toHaveLength(4);
    expect(JSON.stringify(first)).toBe(seen);
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(first.history).toHaveLength(2);
    expect(first.artifacts).toBeUndefined();
  });

  it("a stream's first snapshot still shows the task as created, though the agent wrote on synchronously", async () => {
    const a2a = createA2AHandler({
      agentCard,
      executor: {
        execute: async (ctx) => {
          void ctx.submit();
          void ctx.working('on it');
          await ctx.complete('done');
        },
      },
    });
    const events: unknown[] = [];
    for await (const event of a2a.requestHandler.sendStreamingMessage(message('hi'), {})) events.push(event);
    const [snapshot] = events as { task: Task }[];
    expect(snapshot?.task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(snapshot?.task.history).toHaveLength(1);
    expect(events).toHaveLength(3);
  });
});
