import { describe, expect, it } from 'vitest';
import { type AgentExecutor, createA2AHandler } from '../src/index.js';
import { fetchClient } from './fetch-client.js';
import { card, userMessage } from './helpers.js';

// CancelTask writes CANCELED once; when the executor publishes its own CANCELED status while the cancel is under
// way (its cancel hook, or execute() once the signal aborted, before the cancel writes), that status's message and
// event metadata are the ones written and streamed.

const agentCard = { ...card, capabilities: { streaming: true } };

/** Works until the signal aborts; `onAbort` runs in execute() then. */
const waiting =
  (onAbort?: AgentExecutor['cancel']): AgentExecutor['execute'] =>
  async (ctx) => {
    await ctx.working('started');
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    await onAbort?.(ctx);
  };

async function cancelWhileStreaming(executor: AgentExecutor, cancelMetadata?: Record<string, unknown>) {
  const client = fetchClient(createA2AHandler({ agentCard, executor, onError: () => {} }));
  const stream = await client.stream('SendStreamingMessage', { message: userMessage('go') });
  const { task } = await stream.next();
  expect((await stream.next()).statusUpdate.status.state).toBe('TASK_STATE_WORKING');
  const canceled = await client.rpc('CancelTask', { id: task.id, ...(cancelMetadata && { metadata: cancelMetadata }) });
  const streamed = await stream.rest();
  const got = (await client.rpc('GetTask', { id: task.id })).body.result;
  return { canceled: canceled.body.result, streamed, got, client };
}

const text = (status: { message?: { parts: { text?: string }[] } }) => status.message?.parts[0]?.text;

describe("the executor's own CANCELED status", () => {
  it('from the cancel hook: its message and metadata are the CANCELED status, streamed once', async () => {
    const { canceled, streamed, got } = await cancelWhileStreaming({
      execute: waiting(),
      cancel: (ctx) => ctx.status('TASK_STATE_CANCELED', 'stopped by the agent', { metadata: { why: 'asked' } }),
    });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(text(canceled.status)).toBe('stopped by the agent');
    expect(text(got.status)).toBe('stopped by the agent');
    expect(got.history.at(-1).parts[0].text).toBe('stopped by the agent');
    expect(streamed).toHaveLength(1);
    expect(streamed[0].statusUpdate).toMatchObject({
      status: { state: 'TASK_STATE_CANCELED', message: { role: 'ROLE_AGENT', taskId: got.id } },
      metadata: { why: 'asked' },
    });
    expect(text(streamed[0].statusUpdate.status)).toBe('stopped by the agent');
  });

  it('not awaited by the hook, merged with the metadata of the CancelTask request', async () => {
    const { canceled, streamed } = await cancelWhileStreaming(
      {
        execute: waiting(),
        cancel(ctx) {
          void ctx.status('TASK_STATE_CANCELED', 'bye', { metadata: { why: 'asked' } });
        },
      },
      { by: 'client', why: 'client' },
    );
    expect(text(canceled.status)).toBe('bye');
    expect(streamed.map((e) => e.statusUpdate.metadata)).toEqual([{ by: 'client', why: 'asked' }]);
  });

  it('from execute() once aborted, while the cancel hook still runs', async () => {
    const { canceled, streamed } = await cancelWhileStreaming({
      execute: waiting((ctx) => ctx.status('TASK_STATE_CANCELED', 'noticed the abort')),
      cancel: () => new Promise((resolve) => setTimeout(resolve, 20)),
    });
    expect(text(canceled.status)).toBe('noticed the abort');
    expect(streamed).toHaveLength(1);
  });

  it('other publications during the cancel are still ignored; without a status the cancel has no message', async () => {
    const { canceled, streamed, got } = await cancelWhileStreaming({
      execute: waiting(),
      async cancel(ctx) {
        await ctx.complete('done after all');
        await ctx.artifact({ text: 'late' });
      },
    });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(canceled.status.message).toBeUndefined();
    expect(got.artifacts).toBeUndefined();
    expect(streamed.map((e) => e.statusUpdate?.status.state)).toEqual(['TASK_STATE_CANCELED']);
  });

  it('a CANCELED status after the cancel wrote its own is ignored', async () => {
    let late: Promise<void> | undefined;
    const { canceled, client } = await cancelWhileStreaming({
      execute: waiting(async (ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        late = ctx.status('TASK_STATE_CANCELED', 'too late');
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    await late;
    expect(canceled.status.message).toBeUndefined();
    const got = (await client.rpc('GetTask', { id: canceled.id })).body.result;
    expect(got).toMatchObject({ status: { state: 'TASK_STATE_CANCELED' } });
    expect(got.status.message).toBeUndefined();
  });
});
