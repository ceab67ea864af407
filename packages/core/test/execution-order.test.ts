import { describe, expect, it } from 'vitest';
import { type AgentExecutor, createA2AHandler, type ExecutionCoordinator } from '../src/index.js';
import { card, startServer, userMessage } from './helpers.js';

const agentCard = { ...card, capabilities: { streaming: true } };

// An execution is tracked (its lease taken, findable by a CancelTask) before its agent runs: the agent's first step
// runs inside `execute()`'s synchronous part (issue 39), so the task it creates must not exist untracked.

function recording() {
  const events: string[] = [];
  const coordinator: ExecutionCoordinator = {
    track: (execution) => {
      events.push(`track ${execution.taskId}`);
      return { release: () => events.push('release') };
    },
    requestCancel: async () => {},
  };
  return { events, coordinator };
}

describe('the order of tracking and execution', () => {
  it('the coordinator tracks the execution before execute() runs, and releases it after', async () => {
    const { events, coordinator } = recording();
    const executor: AgentExecutor = {
      execute: (ctx) => {
        events.push(`execute ${ctx.taskId}`);
        return ctx.complete('done');
      },
    };
    const server = await startServer({
      agentCard,
      executor,
      coordinator,
    });
    try {
      const { body } = await server.rpc('SendMessage', { message: userMessage('hi') });
      expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const id = body.result.task.id;
      expect(events).toEqual([`track ${id}`, `execute ${id}`, 'release']);
    } finally {
      await server.close();
    }
  });

  it('a task the agent creates synchronously is stored once execute() returns, and the answer shows it', async () => {
    let storedDuringExecute: unknown;
    const a2a = createA2AHandler({
      agentCard,
      executor: {
        execute: async (ctx) => {
          void ctx.working('on it');
          storedDuringExecute = (await a2a.requestHandler.store.get(ctx.taskId))?.task.status.state;
          await ctx.complete('done');
        },
      },
    });
    const { task } = (await a2a.requestHandler.sendMessage(
      { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      {},
    )) as {
      task: { status: { state: string } };
    };
    expect(storedDuringExecute).toBe('TASK_STATE_WORKING');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('steps the agent does not await are written at once and in call order when each write lands synchronously', async () => {
    let seenDuringExecute: unknown;
    const a2a = createA2AHandler({
      agentCard,
      executor: {
        execute: async (ctx) => {
          void ctx.working('on it');
          void ctx.artifact({ artifactId: 'a', text: 'one' });
          void ctx.artifact({ artifactId: 'a', text: 'two', append: true });
          // The in-memory store's writes land synchronously, so no step waits for the one before it to be counted.
          const read = a2a.requestHandler.store.get(ctx.taskId);
          const stored = await read;
          seenDuringExecute = {
            state: stored?.task.status.state,
            parts: stored?.task.artifacts?.[0]?.parts,
            version: stored?.version,
          };
          await ctx.complete('done');
        },
      },
    });
    const { task } = (await a2a.requestHandler.sendMessage(
      { message: { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      {},
    )) as { task: { status: { state: string }; artifacts: { parts: unknown[] }[] } };
    expect(seenDuringExecute).toEqual({
      state: 'TASK_STATE_WORKING',
      parts: [{ text: 'one' }, { text: 'two' }],
      version: 4,
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0]?.parts).toEqual([{ text: 'one' }, { text: 'two' }]);
  });
});
