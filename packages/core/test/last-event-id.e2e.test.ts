import { afterEach, describe, expect, it } from 'vitest';
import { type AgentContext, InMemoryTaskStore } from '../src/index.js';
import { card, deferred, sseReader, startServer, type TestServer, userMessage } from './helpers.js';

// SSE ids are log sequence numbers; SubscribeToTask with Last-Event-ID resumes after one (in-memory store, live task).
describe('stream resumption with Last-Event-ID', () => {
  let server: TestServer;
  afterEach(() => server?.close());
  /** A task left running on `server` (SendMessage returning at once): its id. */
  const startTask = async () =>
    (
      await server.rest('POST', '/message:send', {
        message: userMessage('go'),
        configuration: { returnImmediately: true },
      })
    ).body.task.id as string;

  it('replays exactly the events after the id, then continues live', async () => {
    const step = deferred();
    const finish = deferred();
    server = await startServer({
      agentCard: card,
      executor: {
        async execute(ctx: AgentContext) {
          await ctx.working();
          for (let i = 0; i < 3; i++) await ctx.artifact({ artifactId: 'a', text: `${i}`, append: i > 0 });
          step.resolve();
          await finish.promise;
          await ctx.complete('done');
        },
      },
    });
    const id = await startTask();
    await step.promise;

    const first = await fetch(`${server.url}/tasks/${id}:subscribe`, { method: 'POST' });
    const firstReader = sseReader(first);
    const snapshot = await firstReader.next();
    expect(snapshot?.id).toBe('5'); // created (1), working (2), three artifact chunks (3..5)
    await firstReader.cancel();

    const resumed = await fetch(`${server.url}/tasks/${id}:subscribe`, {
      method: 'POST',
      headers: { 'last-event-id': '3' },
    });
    const reader = sseReader(resumed);
    const replayed = [await reader.next(), await reader.next()];
    expect(replayed.map((e) => e?.id)).toEqual(['4', '5']);
    expect(replayed.map((e) => JSON.parse(e?.data ?? '{}').artifactUpdate.artifact.parts[0].text)).toEqual(['1', '2']);
    finish.resolve();
    const last = await reader.next();
    expect(last?.id).toBe('6');
    expect(JSON.parse(last?.data ?? '{}').statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await reader.next()).toBeUndefined();
  });

  it('falls back to the snapshot (every chunk in it) for an id older than the live log keeps', async () => {
    const finish = deferred();
    const chunked = deferred();
    server = await startServer({
      agentCard: card,
      taskStore: new InMemoryTaskStore({ liveLogSize: 4 }),
      executor: {
        async execute(ctx: AgentContext) {
          await ctx.working();
          for (let i = 0; i < 20; i++) await ctx.artifact({ artifactId: 'a', text: `${i}`, append: i > 0 });
          chunked.resolve();
          await finish.promise;
          await ctx.complete('done');
        },
      },
    });
    const id = await startTask();
    await chunked.promise;
    const resumed = await fetch(`${server.url}/tasks/${id}:subscribe`, {
      method: 'POST',
      headers: { 'last-event-id': '3' },
    });
    const reader = sseReader(resumed);
    const first = await reader.next();
    expect(first?.id).toBe('22'); // created (1), working (2), twenty chunks (3..22)
    expect(JSON.parse(first?.data ?? '{}').task.artifacts[0].parts).toHaveLength(20);
    finish.resolve();
    expect(JSON.parse((await reader.next())?.data ?? '{}').statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await reader.next()).toBeUndefined();
  });

  it('falls back to the snapshot for an id it cannot resume from', async () => {
    const finish = deferred();
    server = await startServer({
      agentCard: card,
      executor: {
        async execute(ctx: AgentContext) {
          await ctx.working();
          await finish.promise;
          await ctx.complete('done');
        },
      },
    });
    const id = await startTask();
    const resumed = await fetch(`${server.url}/tasks/${id}:subscribe`, {
      method: 'POST',
      headers: { 'last-event-id': '999' },
    });
    const reader = sseReader(resumed);
    const first = await reader.next();
    expect(JSON.parse(first?.data ?? '{}').task.id).toBe(id);
    finish.resolve();
    await reader.cancel();
  });
});
