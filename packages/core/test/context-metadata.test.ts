import { describe, expect, it } from 'vitest';
import { type AgentContext, createA2AHandler } from '../src/index.js';
import { fetchClient } from './fetch-client.js';
import { card, userMessage } from './helpers.js';

// Metadata an executor sets: on the status and artifact events it publishes (`options.metadata`, `eventMetadata`),
// and on the task itself (`ctx.setMetadata`, shown by GetTask and the snapshots).

const streaming = { ...card, capabilities: { streaming: true } };

async function publish(ctx: AgentContext): Promise<void> {
  await ctx.setMetadata({ a: 1, keep: 'x' });
  await ctx.working('working', { metadata: { step: 1 } });
  await ctx.artifact({ artifactId: 'out', text: 'x', metadata: { own: true }, eventMetadata: { chunk: 1 } });
  await ctx.setMetadata({ a: 2, b: 2 });
  await ctx.complete('done', { metadata: { final: true } });
}

describe('executor metadata', () => {
  const a2a = createA2AHandler({ agentCard: streaming, executor: { execute: publish }, onError: () => {} });
  const client = fetchClient(a2a);

  it('streams the event metadata; the task metadata is in the first snapshot, merged in GetTask and ListTasks', async () => {
    const contextId = crypto.randomUUID();
    const stream = await client.stream('SendStreamingMessage', { message: userMessage('go', { contextId }) });
    const [first, ...events] = [await stream.next(), ...(await stream.rest())];
    expect(first.task.metadata).toEqual({ a: 1, keep: 'x' });
    expect(events.map((e) => e.statusUpdate?.metadata ?? e.artifactUpdate?.metadata)).toEqual([
      { step: 1 },
      { chunk: 1 },
      { final: true },
    ]);
    expect(events[1].artifactUpdate.artifact.metadata).toEqual({ own: true });
    const id = first.task.id;
    const got = (await client.rpc('GetTask', { id })).body.result;
    expect(got.metadata).toEqual({ a: 2, keep: 'x', b: 2 });
    expect(got.artifacts[0].metadata).toEqual({ own: true });
    const listed = (await client.rpc('ListTasks', { contextId })).body.result.tasks;
    expect(listed[0].metadata).toEqual({ a: 2, keep: 'x', b: 2 });
  });

  it('a blocking SendMessage answers the task with its metadata', async () => {
    const task = (await client.rpc('SendMessage', { message: userMessage('go') })).body.result.task;
    expect(task).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' }, metadata: { a: 2, keep: 'x', b: 2 } });
  });

  it('refuses metadata once the task is finished', async () => {
    let late: unknown;
    const done = createA2AHandler({
      agentCard: streaming,
      executor: {
        async execute(ctx) {
          await ctx.complete();
          late = await ctx.setMetadata({ late: true }).catch((error: Error) => error.message);
        },
      },
      onError: () => {},
    });
    const task = (await fetchClient(done).rpc('SendMessage', { message: userMessage('go') })).body.result.task;
    expect(late).toMatch(/metadata is final/);
    expect((await fetchClient(done).rpc('GetTask', { id: task.id })).body.result.metadata).toBeUndefined();
  });
});
