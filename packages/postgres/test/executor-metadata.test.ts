import { type AgentContext, createA2AHandler } from '@a2a/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

// Core's executor metadata on PostgreSQL: the task's own metadata (set before and after the task is stored) and the
// events' metadata, as GetTask and a second instance read them.

async function execute(ctx: AgentContext): Promise<void> {
  await ctx.setMetadata({ a: 1 });
  await ctx.working('working', { metadata: { step: 1 } });
  await ctx.artifact({ text: 'x', eventMetadata: { chunk: 1 } });
  await ctx.setMetadata({ b: 2 });
  await ctx.complete('done', { metadata: { final: true } });
}

const agentCard = {
  name: 'pg',
  description: 'pg',
  version: '1.0.0',
  capabilities: {},
  skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
};

describe.runIf(hasDatabase)('executor metadata on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: PostgresTaskStore;
  let other: PostgresTaskStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = await PostgresTaskStore.connect({ connection: db.url, onError: () => {} });
    other = await PostgresTaskStore.connect({ connection: db.url, onError: () => {} });
  });
  afterAll(async () => {
    await store?.close();
    await other?.close();
    await db?.drop();
  });

  it('GetTask shows the merged task metadata; the log holds the events with theirs', async () => {
    const a2a = createA2AHandler({ agentCard, executor: { execute }, taskStore: store, onError: () => {} });
    const response = await a2a.fetch(
      new Request('http://agent.test/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'go' }] } },
        }),
      }),
    );
    const { task } = ((await response.json()) as { result: { task: { id: string; metadata: unknown } } }).result;
    expect(task.metadata).toEqual({ a: 1, b: 2 });
    const read = await other.get(task.id);
    expect(read?.task.metadata).toEqual({ a: 1, b: 2 });
    const events = (await other.readEvents(task.id, 0)).map((r) => [
      r.event.kind,
      'metadata' in r.event && r.event.metadata,
    ]);
    expect(events).toEqual([
      ['status', { step: 1 }],
      ['artifact', { chunk: 1 }],
      ['metadata', { b: 2 }],
      ['status', { final: true }],
    ]);
  });
});
