import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureExecutor } from './agent-fixture.js';
import { card, sseReader, startServer, type TestServer } from './helpers.js';

// Edges of the v0.3 HTTP+JSON binding the conformance kit (0.3.0.beta4) exercises: both spellings of every field and
// query parameter, POST and GET subscribe, errors before a stream's first frame, and the frame shape option.

let proto: TestServer;
let bare: TestServer;
const fixture = fixtureExecutor();
beforeAll(async () => {
  const options = { agentCard: card, executor: fixture.executor };
  proto = await startServer(options);
  bare = await startServer({ ...options, v03RestStreamFrames: 'json' });
});
afterAll(async () => {
  await proto.close();
  await bare.close();
});

const post = (s: TestServer, path: string, body?: unknown) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
const json = async (r: Response) => ({ status: r.status, type: r.headers.get('content-type'), body: await r.json() });
const snake = (text: string) => ({ message_id: crypto.randomUUID(), role: 'ROLE_USER', content: [{ text }] });
const camel = (text: string) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', content: [{ text }] });

/** A task with three user turns (history of 6+ messages), sent with the given message spelling. */
async function longTask(s: TestServer, message: (text: string) => Record<string, unknown>) {
  // 'ask' leaves the task input-required; each follow-up keeps it open (the fixture's default for a known task).
  const first = await json(await post(s, '/v1/message:send', { message: message('ask') }));
  const id: string = first.body.task.id;
  for (const text of ['second', 'third']) {
    const taskRef = 'message_id' in message('') ? { task_id: id } : { taskId: id };
    const next = await json(await post(s, '/v1/message:send', { message: { ...message(text), ...taskRef } }));
    expect(next.body.task?.id, JSON.stringify(next.body)).toBe(id);
  }
  return id;
}

describe('v0.3 HTTP+JSON binding: spellings', () => {
  it('continues a task and trims history with snake_case names (task_id, history_length)', async () => {
    const id = await longTask(proto, snake);
    const full = await json(await fetch(`${proto.url}/v1/tasks/${id}`));
    expect(full.body.history.length).toBeGreaterThan(2);
    const trimmed = await json(await fetch(`${proto.url}/v1/tasks/${id}?history_length=2`));
    expect(trimmed.body.history).toHaveLength(2);
    expect(trimmed.body.history.at(-1)).toEqual(full.body.history.at(-1));
    const sent = await json(
      await post(proto, '/v1/message:send', {
        message: { ...snake('fourth'), task_id: id },
        configuration: { history_length: 1 },
      }),
    );
    expect(sent.body.task.history).toHaveLength(1);
  });

  it('continues a task and trims history with camelCase names (taskId, historyLength)', async () => {
    const id = await longTask(proto, camel);
    const trimmed = await json(await fetch(`${proto.url}/v1/tasks/${id}?historyLength=1`));
    expect(trimmed.body.history).toHaveLength(1);
    const sent = await json(
      await post(proto, '/v1/message:send', {
        message: { ...camel('fourth'), taskId: id },
        configuration: { historyLength: 1 },
      }),
    );
    expect(sent.body.task.history).toHaveLength(1);
  });

  it('rejects a negative history length and a message without content', async () => {
    const task = (await json(await post(proto, '/v1/message:send', { message: snake('plain') }))).body.task;
    const negative = await json(await fetch(`${proto.url}/v1/tasks/${task.id}?history_length=-1`));
    expect([negative.status, negative.body.error]).toEqual([400, 'InvalidParamsError']);
    const { content: _, ...noContent } = snake('x');
    const missing = await json(await post(proto, '/v1/message:send', { message: noContent }));
    expect([missing.status, missing.body.error, missing.body.code]).toEqual([400, 'InvalidParamsError', -32602]);
  });
});

describe('v0.3 HTTP+JSON binding: GET /v1/tasks', () => {
  it("lists the caller's tasks with v0.3 filters and spellings, tasks in the v0.3 proto shape", async () => {
    const user = { 'x-user': `lister-${crypto.randomUUID()}` };
    const send = async (text: string, extra: Record<string, unknown> = {}) =>
      (
        await json(
          await fetch(`${proto.url}/v1/message:send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...user },
            body: JSON.stringify({ message: { ...snake(text), ...extra } }),
          }),
        )
      ).body.task;
    const done = await send('plain');
    const asking = await send('ask', { context_id: 'ctx-list' });
    const list = async (query: string) => json(await fetch(`${proto.url}/v1/tasks${query}`, { headers: user }));

    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total_size: 2, next_page_token: '' });
    expect(all.body.tasks.map((t: { id: string }) => t.id).sort()).toEqual([done.id, asking.id].sort());
    expect(all.body.tasks[0]).toMatchObject({ context_id: expect.any(String), status: { state: expect.any(String) } });

    for (const query of ['?status=input-required', '?status=TASK_STATE_INPUT_REQUIRED', '?context_id=ctx-list']) {
      const filtered = await list(query);
      expect(
        filtered.body.tasks.map((t: { id: string }) => t.id),
        query,
      ).toEqual([asking.id]);
      expect(filtered.body.tasks[0].status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    }
    expect((await list('?contextId=ctx-list')).body.total_size).toBe(1);
    const page = await list('?page_size=1');
    expect([page.body.tasks.length, page.body.page_size, page.body.next_page_token]).toEqual([
      1,
      1,
      expect.any(String),
    ]);
    expect(page.body.next_page_token).not.toBe('');
    const bad = await list('?page_size=-3');
    expect([bad.status, bad.body.error]).toEqual([400, 'InvalidParamsError']);
    // Another caller sees none of them.
    const other = await json(await fetch(`${proto.url}/v1/tasks`, { headers: { 'x-user': 'someone-else' } }));
    expect(other.body.tasks).toEqual([]);
  });
});

describe('v0.3 HTTP+JSON binding: GET /v1/card', () => {
  it('is the authenticated extended card when the agent declares one (401 without a caller)', async () => {
    const s = await startServer({
      agentCard: { ...card, capabilities: { streaming: true, extendedAgentCard: true } },
      executor: fixture.executor,
      extendedAgentCard: (user) => ({ ...card, name: `Card for ${user.id}` }),
    });
    try {
      const anonymous = await fetch(`${s.url}/v1/card`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await anonymous.json()).message).toMatch(/authentication/i);
      const ann = await json(await fetch(`${s.url}/v1/card`, { headers: { 'x-user': 'ann' } }));
      expect(ann.status).toBe(200);
      expect(ann.body).toMatchObject({ name: 'Card for ann', protocolVersion: '0.3.0', url: `${s.url}/` });
      expect(ann.body.additionalInterfaces).toContainEqual({ url: s.url, transport: 'HTTP+JSON' });
      // The v0.3 JSON-RPC method agrees: HTTP 401 without a caller, the card with one.
      expect((await s.rpc('agent/getAuthenticatedExtendedCard')).status).toBe(401);
      const viaRpc = await s.rpc('agent/getAuthenticatedExtendedCard', undefined, { 'x-user': 'bob' });
      expect(viaRpc.body.result.name).toBe('Card for bob');
      // The public card stays at the well-known path, for everyone.
      expect((await fetch(`${s.url}/.well-known/agent-card.json`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('is the public (superset) card when the agent declares no extended card', async () => {
    const r = await json(await fetch(`${proto.url}/v1/card`));
    expect([r.status, r.body.name, r.body.preferredTransport]).toEqual([200, card.name, 'JSONRPC']);
  });
});

describe('v0.3 HTTP+JSON binding: streams and errors', () => {
  it('subscribes with POST as with GET, and ends with the task', async () => {
    const task = (
      await json(await post(proto, '/v1/message:send', { message: snake('hang'), configuration: { blocking: false } }))
    ).body.task;
    const events = sseReader(await post(proto, `/v1/tasks/${task.id}:subscribe`));
    expect(JSON.parse((await events.next())?.data ?? '{}').task.id).toBe(task.id);
    const canceled = await json(await post(proto, `/v1/tasks/${task.id}:cancel`, {}));
    expect(canceled.body.status.state).toBe('TASK_STATE_CANCELLED');
    const last = (await events.all()).map((e) => JSON.parse(e.data)).at(-1);
    expect(last.status_update).toMatchObject({ final: true, status: { state: 'TASK_STATE_CANCELLED' } });
  });

  it('answers errors before the first frame with the HTTP status and a JSON body, not a stream', async () => {
    for (const method of ['GET', 'POST']) {
      const r = await fetch(`${proto.url}/v1/tasks/nope:subscribe`, { method });
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect([r.status, (await r.json()).error]).toEqual([404, 'TaskNotFoundError']);
    }
    const invalid = await post(proto, '/v1/message:stream', { message: { ...snake('x'), content: [] } });
    expect(invalid.headers.get('content-type')).toMatch(/^application\/json/);
    expect([invalid.status, (await invalid.json()).error]).toEqual([400, 'InvalidParamsError']);
  });

  it('answers unknown tasks on every task route with 404 TaskNotFoundError', async () => {
    const cancel = await json(await post(proto, '/v1/tasks/nope:cancel', {}));
    expect([cancel.status, cancel.body.error]).toEqual([404, 'TaskNotFoundError']);
    const push = await json(await fetch(`${proto.url}/v1/tasks/nope/pushNotificationConfigs`));
    expect([push.status, push.body.error]).toEqual([404, 'TaskNotFoundError']);
    expect((await fetch(`${proto.url}/v1/tasks/nope:cancel`)).status).toBe(405);
  });

  it("prints stream frames as bare kind-tagged v0.3 objects with v03RestStreamFrames: 'json'", async () => {
    const events = sseReader(await post(bare, '/v1/message:stream', { message: snake('gated bare') }));
    const first = JSON.parse((await events.next())?.data ?? '{}');
    expect(first).toMatchObject({ kind: 'task', id: expect.any(String), status: { state: 'submitted' } });
    const resubscribed = sseReader(await post(bare, `/v1/tasks/${first.id}:subscribe`));
    expect(JSON.parse((await resubscribed.next())?.data ?? '{}')).toMatchObject({ kind: 'task', id: first.id });
    fixture.release('bare');
    fixture.release('bare-2');
    const rest = (await events.all()).map((e) => JSON.parse(e.data));
    expect(rest.find((e) => e.kind === 'artifact-update')).toMatchObject({
      taskId: first.id,
      artifact: { artifactId: 'out', parts: [{ kind: 'text', text: 'chunk 1' }] },
    });
    expect(rest.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect((await resubscribed.all()).map((e) => JSON.parse(e.data)).at(-1).status.state).toBe('completed');
    // Unary answers keep the v0.3 proto shape.
    const sent = await json(await post(bare, '/v1/message:send', { message: snake('plain') }));
    expect(sent.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
