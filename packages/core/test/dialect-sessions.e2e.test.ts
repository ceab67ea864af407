import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentExecutor } from '../src/index.js';
import { card, sseReader, startServer, type TestServer } from './helpers.js';

// The "sessions" dialect (seed document 004) end to end over real HTTP: a session is a context; its messages are
// those of the context's tasks; ending it cancels what still runs and refuses new messages.

const executor: AgentExecutor = {
  async execute(ctx) {
    const text = ctx.message.parts[0]?.text ?? '';
    if (ctx.task) return ctx.complete(`Booked: ${text}`);
    if (text === 'book a flight') return ctx.inputRequired('Where to?');
    if (text === 'wait for me') {
      await ctx.working('waiting');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      return;
    }
    if (text === 'files') {
      await ctx.artifact({ artifactId: 'report', name: 'report.json', parts: [{ data: { ok: true } }] });
      return ctx.complete();
    }
    return ctx.complete(`echo: ${text}`);
  },
};

let s: TestServer;
beforeAll(async () => {
  s = await startServer({
    agentCard: { ...card, defaultInputModes: ['text/plain', 'image/png'] },
    executor,
    dialects: ['sessions'],
  });
});
afterAll(() => s.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('sessions dialect', () => {
  it('lists messages in the order they were sent, even within one millisecond', async () => {
    const id: string = (await s.rest('POST', '/sessions', {})).body.session.id;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() }); // the clock stands still (at the real time: listing is by time)
    try {
      for (let i = 0; i < 8; i++) await s.rest('POST', `/sessions/${id}/messages`, { role: 'user', content: `m${i}` });
    } finally {
      vi.useRealTimers();
    }
    const listed = (await s.rest('GET', `/sessions/${id}/messages?limit=100`)).body.messages as { content: string }[];
    const sent = listed.filter((m) => m.content.startsWith('m')).map((m) => m.content);
    expect(sent).toEqual(Array.from({ length: 8 }, (_, i) => `m${i}`));
  });

  it('drives a session: create, two messages, list with cursors, stream, delete', async () => {
    const created = await s.rest('POST', '/sessions', { metadata: { topic: 'travel' }, extra: 'tolerated' });
    expect(created.status).toBe(201);
    const session = created.body.session;
    expect(session).toMatchObject({ status: 'active', metadata: { topic: 'travel' } });
    expect(session.created_at).toMatch(ISO);
    const id: string = session.id;

    const stream = await fetch(`${s.url}/sessions/${id}/stream`);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseReader(stream);

    const first = await s.rest('POST', `/sessions/${id}/messages`, { role: 'user', content: 'book a flight' });
    expect(first.status).toBe(200);
    expect(first.body.message).toMatchObject({ role: 'agent', content: 'Where to?', task_state: 'input-required' });
    expect(first.body.message.created_at).toMatch(ISO);
    const second = await s.rest('POST', `/sessions/${id}/messages`, {
      role: 'user',
      content: 'Lisbon',
      in_reply_to: first.body.message.id,
      metadata: { seat: 'aisle' },
      artifacts: [{ id: 'pass', type: 'image/png', data: 'base64:iVBORw0KGgo=', name: 'passport.png' }],
    });
    expect(second.body.message).toMatchObject({ role: 'agent', content: 'Booked: Lisbon', task_state: 'completed' });
    // The second message continued the task that waited for input.
    expect(second.body.message.task_id).toBe(first.body.message.task_id);

    const live: unknown[] = [];
    for (let i = 0; i < 4; i++) live.push(JSON.parse((await events.next())?.data ?? 'null').message.content);
    expect(live).toEqual(['book a flight', 'Where to?', 'Lisbon', 'Booked: Lisbon']);

    const page1 = await s.rest('GET', `/sessions/${id}/messages?limit=3`);
    expect(page1.body.messages.map((m: { content: string }) => m.content)).toEqual([
      'book a flight',
      'Where to?',
      'Lisbon',
    ]);
    const lisbon = page1.body.messages[2];
    expect(lisbon).toMatchObject({
      role: 'user',
      in_reply_to: first.body.message.id,
      metadata: { seat: 'aisle' },
      artifacts: [{ id: 'pass', type: 'image/png', data: 'base64:iVBORw0KGgo=', name: 'passport.png' }],
    });
    expect(page1.body.pagination.prev_cursor).toBeUndefined();
    const page2 = await s.rest('GET', `/sessions/${id}/messages?limit=3&cursor=${page1.body.pagination.next_cursor}`);
    expect(page2.body.messages.map((m: { content: string }) => m.content)).toEqual(['Booked: Lisbon']);
    expect(page2.body.pagination.next_cursor).toBeUndefined();
    const back = await s.rest('GET', `/sessions/${id}/messages?limit=2&cursor=${page2.body.pagination.prev_cursor}`);
    expect(back.body.messages.map((m: { content: string }) => m.content)).toEqual(['Where to?', 'Lisbon']);

    // Readable through v1.0 GetTask.
    const task = await s.rpc('GetTask', { id: second.body.message.task_id });
    expect(task.body.result).toMatchObject({ contextId: id, status: { state: 'TASK_STATE_COMPLETED' } });

    const ended = await s.rest('DELETE', `/sessions/${id}`);
    expect(ended.body.session).toMatchObject({ id, status: 'completed' });
    const end = await events.next();
    expect(end?.event).toBe('session');
    expect(await events.next()).toBeUndefined();
    const refused = await s.rest('POST', `/sessions/${id}/messages`, { role: 'user', content: 'more' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('session_ended');
    // A stream opened on an ended session replays and closes.
    const replay = await sseReader(await fetch(`${s.url}/sessions/${id}/stream`)).all();
    expect(replay.map((e) => e.event)).toEqual(['message', 'message', 'message', 'message', 'session']);
  });

  it('ending a session cancels its live tasks', async () => {
    const id = (await s.rest('POST', '/sessions')).body.session.id;
    const waiting = s.rest('POST', `/sessions/${id}/messages`, { role: 'user', content: 'wait for me' });
    let tasks: { id: string; status: { state: string } }[] = [];
    for (let i = 0; i < 200 && tasks.length === 0; i++) {
      tasks = (await s.rpc('ListTasks', { contextId: id })).body.result.tasks;
      if (!tasks.length) await new Promise((r) => setTimeout(r, 10));
    }
    expect((await s.rest('DELETE', `/sessions/${id}`)).status).toBe(200);
    const answer = await waiting;
    expect(answer.body.message.task_state).toBe('canceled');
    const task = await s.rpc('GetTask', { id: tasks[0]?.id });
    expect(task.body.result.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('maps artifacts both ways and serves its card', async () => {
    const id = (await s.rest('POST', '/sessions')).body.session.id;
    const reply = await s.rest('POST', `/sessions/${id}/messages`, { role: 'system', content: 'files' });
    expect(reply.body.message).toMatchObject({
      id: expect.stringMatching(/:reply$/),
      role: 'agent',
      artifacts: [{ id: 'report', type: 'application/json', data: { ok: true }, name: 'report.json' }],
    });
    const listed = await s.rest('GET', `/sessions/${id}/messages`);
    expect(listed.body.messages[0].role).toBe('system');
    expect(listed.body.messages[1]).toEqual(reply.body.message);
    const c = await s.rest('GET', '/card');
    expect(c.body).toMatchObject({
      name: card.name,
      api: { type: 'a2a', url: s.url, version: '1.0' },
      auth: { type: 'none' },
      capabilities: [{ type: 'echo', description: 'Echoes' }],
    });
  });

  it("scopes sessions to the caller and answers errors in the dialect's shape", async () => {
    const id = (await s.rest('POST', '/sessions', {}, { 'x-user': 'alice' })).body.session.id;
    const other = await s.rest('GET', `/sessions/${id}`, undefined, { 'x-user': 'bob' });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({
      error: { code: 'session_not_found', message: `Session not found: ${id}`, details: { session_id: id } },
    });
    const bad = await s.rest('POST', `/sessions/${id}/messages`, { role: 'agent', content: 1 }, { 'x-user': 'alice' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect(bad.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['role', 'content']);
    const cursor = await s.rest('GET', `/sessions/${id}/messages?cursor=nope`, undefined, { 'x-user': 'alice' });
    expect(cursor.body.error.code).toBe('invalid_cursor');
    const method = await s.rest('PUT', `/sessions/${id}`);
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, DELETE');
  });
});

describe('sessions dialect on shutdown', () => {
  it("close() ends the open session streams and refuses new ones (503 in the dialect's shape)", async () => {
    const t = await startServer({ agentCard: card, executor, dialects: ['sessions'] });
    try {
      const id = (await t.rest('POST', '/sessions')).body.session.id;
      const events = sseReader(await fetch(`${t.url}/sessions/${id}/stream`));
      await t.a2a.close({ timeoutMs: 100 });
      expect(await events.next()).toBeUndefined(); // ended cleanly
      const refused = await t.rest('GET', `/sessions/${id}/stream`);
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('unavailable');
    } finally {
      await t.close();
    }
  });
});
