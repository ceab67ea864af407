import { describe, expect, it } from 'vitest';
import { type AgentExecutor, createA2AHandler, type ExecutionCoordinator } from '../src/index.js';
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

  // The registry keeps its per-execution state on the execution (its slot, its lease) and lets go of it once, from
  // whichever comes first: the turn's end, an abort, or a failure to settle.
  function leases() {
    const released: string[] = [];
    let onRelease = () => {};
    const coordinator: ExecutionCoordinator = {
      track: (execution) => ({
        release: () => {
          released.push(execution.taskId);
          onRelease();
        },
      }),
      requestCancel: async () => {},
    };
    const nextRelease = () => new Promise<void>((resolve) => (onRelease = resolve));
    return { released, coordinator, nextRelease };
  }

  it('a canceled execution releases its lease once, and a finished one once', async () => {
    const { released, coordinator } = leases();
    const executor: AgentExecutor = {
      async execute(ctx) {
        if (ctx.message.parts[0]?.text === 'quick') return ctx.complete('done');
        await ctx.working('started');
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      },
    };
    const client = fetchClient(
      createA2AHandler({ agentCard: { ...card, capabilities: {} }, executor, coordinator, onError: () => {} }),
    );
    const sent = await client.rpc('SendMessage', {
      message: userMessage('slow'),
      configuration: { returnImmediately: true },
    });
    const slow = sent.body.result.task.id;
    const canceled = await client.rpc('CancelTask', { id: slow });
    expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
    const quick = await client.rpc('SendMessage', { message: userMessage('quick') });
    expect(quick.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(released).toEqual([slow, quick.body.result.task.id]);
  });

  it('an agent failure whose report throws still releases the lease, and the report of that is heard', async () => {
    const { released, coordinator, nextRelease } = leases();
    const reported: string[] = [];
    const executor: AgentExecutor = {
      async execute() {
        throw new Error('agent broke');
      },
    };
    const client = fetchClient(
      createA2AHandler({
        agentCard: { ...card, capabilities: {} },
        executor,
        coordinator,
        onError: (error) => {
          reported.push((error as Error).message);
          if (reported.length === 1) throw new Error('hook broke');
        },
      }),
    );
    const releasing = nextRelease();
    const sent = await client.rpc('SendMessage', {
      message: userMessage('hi'),
      configuration: { returnImmediately: true },
    });
    await releasing;
    expect(released).toEqual([sent.body.result.task.id]);
    expect(reported).toEqual(['agent broke', 'hook broke']);
  });
});
