import { type Listening, listen } from '@a2a/adapter-testsuite';
import { type AgentExecutor, createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

// The sessions dialect keeps its session records in the task store, under an owner key of their own: on PostgreSQL
// they are durable and shared, so an instance that did not create a session reads it, and one that did not end it
// still refuses its messages; no v1.0 ListTasks ever shows them.

const executor: AgentExecutor = {
  async execute(ctx) {
    if (ctx.task) return ctx.complete(`done: ${ctx.message.parts[0]?.text ?? ''}`);
    return ctx.inputRequired('More?');
  },
};
const card = {
  name: 'Sessions on PostgreSQL',
  description: 'test',
  version: '1.0.0',
  skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
};

describe.runIf(hasDatabase)('sessions dialect on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const stores: PostgresTaskStore[] = [];
  const servers: Listening[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      const store = await PostgresTaskStore.connect({ connection: db.url, pollIntervalMs: 200, onError: () => {} });
      stores.push(store);
      const a2a = createA2AHandler({ agentCard: card, executor, taskStore: store, dialects: ['sessions'] });
      const server = await listen(createNodeHandler(a2a, { context: () => ({ user: { id: 'alice' } }) }));
      servers.push(server);
      urls.push(server.url);
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const store of stores) await store.close();
    await db?.drop();
  });

  const call = async (url: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(`${url}${path}`, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: r.status, body: await r.json() };
  };

  it('creates on one instance, converses and ends on the other, and the first refuses afterwards', async () => {
    const [a = '', b = ''] = urls;
    const created = await call(a, 'POST', '/sessions', { metadata: { k: 'v' } });
    expect(created.status).toBe(201);
    const id = created.body.session.id;
    expect((await call(b, 'GET', `/sessions/${id}`)).body.session).toMatchObject({ id, status: 'active' });
    expect(
      (await call(b, 'POST', `/sessions/${id}/messages`, { role: 'user', content: 'hi' })).body.message,
    ).toMatchObject({ content: 'More?', task_state: 'input-required' });
    const second = await call(a, 'POST', `/sessions/${id}/messages`, { role: 'user', content: 'that is all' });
    expect(second.body.message).toMatchObject({ content: 'done: that is all', task_state: 'completed' });
    const listed = await call(b, 'GET', `/sessions/${id}/messages`);
    expect(listed.body.messages.map((m: { content: string }) => m.content)).toEqual([
      'hi',
      'More?',
      'that is all',
      'done: that is all',
    ]);
    // The session record is no task of the caller's.
    const tasks = await fetch(`${a}/tasks`).then((r) => r.json());
    expect(tasks.tasks.map((t: { id: string }) => t.id)).not.toContain(id);
    expect((await fetch(`${a}/tasks/${id}`)).status).toBe(404);

    expect((await call(b, 'DELETE', `/sessions/${id}`)).body.session.status).toBe('completed');
    const refused = await call(a, 'POST', `/sessions/${id}/messages`, { role: 'user', content: 'again' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('session_ended');
  });
});
