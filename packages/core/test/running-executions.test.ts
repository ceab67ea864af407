import { describe, expect, it } from 'vitest';
import { type AgentExecutor, createA2AHandler } from '../src/index.js';
import { fetchClient } from './fetch-client.js';
import { card, userMessage } from './helpers.js';

// The registry holds running executions in slots and takes one out by moving the last into its place
// (server/execution-registry.ts): a cancel must still find each task's own execution after others left.

describe('running executions', () => {
  it('a cancel reaches its own execution after others before it were canceled', async () => {
    const canceledIds: string[] = [];
    const executor: AgentExecutor = {
      async execute(ctx) {
        await ctx.working('started');
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      },
      cancel(ctx) {
        canceledIds.push(ctx.taskId);
      },
    };
    const client = fetchClient(
      createA2AHandler({ agentCard: { ...card, capabilities: {} }, executor, onError: () => {} }),
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const sent = await client.rpc('SendMessage', {
        message: userMessage(`task ${i}`),
        configuration: { returnImmediately: true },
      });
      ids.push(sent.body.result.task.id);
    }
    // First the oldest (the newest moves into its slot), then that newest, then one in the middle, then the last.
    for (const id of [ids[0], ids[3], ids[1], ids[2]] as string[]) {
      const canceled = await client.rpc('CancelTask', { id });
      expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
    }
    expect(canceledIds).toEqual([ids[0], ids[3], ids[1], ids[2]]);
  });
});
