import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AError, createA2AHandler } from '../src/index.js';
import { fixtureExecutor } from './agent-fixture.js';
import { card, sseReader, startServer, type TestServer } from './helpers.js';

// The paraphrased v1.0 (seed document 002) as an opt-in dialect: `A2A.`-prefixed JSON-RPC methods and its REST
// paths onto the v1.0 operations; with the dialect off, none of it is served and nothing else changes.

const fixture = fixtureExecutor();
const agentCard = { ...card, capabilities: { streaming: true, pushNotifications: true } };
let on: TestServer;
let off: TestServer;
beforeAll(async () => {
  on = await startServer({ agentCard, executor: fixture.executor, dialects: ['paraphrase'] });
  off = await startServer({ agentCard, executor: fixture.executor });
});
afterAll(async () => {
  await on.close();
  await off.close();
});

const paraphraseMessage = (text: string) => ({
  role: 'user',
  parts: [
    { text },
    { structuredData: { n: 1 } },
    { file: { uri: 'https://example.com/a.txt' }, mimeType: 'text/plain' },
  ],
  messageId: crypto.randomUUID(),
});

describe('paraphrase dialect', () => {
  it('serves A2A.-prefixed JSON-RPC methods with the paraphrase params', async () => {
    const sent = await on.rpc('A2A.SendMessage', {
      message: paraphraseMessage('hi'),
      configuration: { blocking: true },
    });
    const task = sent.body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.history[0].parts).toEqual([
      { text: 'hi' },
      { data: { n: 1 } },
      { url: 'https://example.com/a.txt', mediaType: 'text/plain' },
    ]);
    const got = await on.rpc('A2A.GetTask', { taskId: task.id });
    expect(got.body.result.id).toBe(task.id);
    // Made through the dialect, read through v1.0.
    expect((await on.rpc('GetTask', { id: task.id })).body.result.id).toBe(task.id);
    const unknown = await on.rpc('A2A.Nothing', {});
    expect(unknown.body.error).toMatchObject({ code: -32601, message: 'Method not found: A2A.Nothing' });
    expect((await off.rpc('A2A.GetTask', { taskId: task.id })).body.error.code).toBe(-32601);
  });

  it('serves its REST paths, snake_case queries and {code,message,details} errors', async () => {
    const sent = await on.rest('POST', '/messages', { message: paraphraseMessage('rest') });
    expect(sent.status).toBe(200);
    const id = sent.body.task.id;
    expect((await on.rest('GET', `/tasks/${id}?history_length=1`)).body.history).toHaveLength(1);
    const listed = await on.rest('GET', `/tasks?context_id=${sent.body.task.contextId}&page_size=1`);
    expect(listed.body.tasks.map((t: { id: string }) => t.id)).toEqual([id]);

    const created = await on.rest('POST', `/tasks/${id}/notifications`, {
      configId: 'c1',
      pushNotificationConfig: {
        url: 'https://hooks.example.com/a2a',
        authentication: { scheme: 'Bearer', value: 't' },
      },
    });
    expect(created.body).toMatchObject({ id: 'c1', taskId: id, url: 'https://hooks.example.com/a2a' });
    expect((await on.rest('GET', `/tasks/${id}/notifications/c1`)).body.id).toBe('c1');
    expect((await on.rest('GET', `/tasks/${id}/notifications?page_size=5`)).body.configs).toHaveLength(1);
    expect((await on.rest('DELETE', `/tasks/${id}/notifications/c1`)).status).toBe(200);

    const canceled = await on.rest('DELETE', `/tasks/${id}`);
    expect(canceled.status).toBe(400);
    expect(canceled.body).toMatchObject({ code: -32002, message: expect.stringContaining('cannot be canceled') });
    expect(canceled.body.details[0]).toMatchObject({ reason: 'TASK_NOT_CANCELABLE' });
    const missing = await on.rest('GET', '/tasks/nope/stream');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: -32001 });
    const bad = await on.rest('POST', '/messages', { message: { role: 'user', parts: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(-32602);
    expect((await on.rest('PUT', '/messages')).status).toBe(405);
    expect((await on.rest('GET', '/agent-card')).body).toMatchObject({ code: -32004 });
  });

  it('streams: POST /messages/stream and GET /tasks/{id}/stream', async () => {
    const r = await fetch(`${on.url}/messages/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: paraphraseMessage('stream') }),
    });
    const events = (await sseReader(r).all()).map((e) => JSON.parse(e.data));
    expect(events[0].task).toBeDefined();
    expect(events.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // A finished task has nothing to subscribe to: the paraphrase's error, with the HTTP status.
    const after = await on.rest('GET', `/tasks/${events[0].task.id}/stream`);
    expect(after.status).toBe(400);
    expect(after.body).toMatchObject({ code: -32004 });
  });

  it('leaves every dialect path alone when off', async () => {
    expect((await off.rest('POST', '/messages', { message: paraphraseMessage('x') })).status).toBe(404);
    expect((await off.rest('GET', '/agent-card')).status).toBe(404);
    expect((await off.rest('GET', '/tasks/x/stream')).status).toBe(404);
    expect((await off.rest('DELETE', '/tasks/x')).status).toBe(405);
    expect((await off.rest('GET', '/card')).status).toBe(404);
    expect((await off.rest('POST', '/sessions', {})).status).toBe(404);
  });

  it('refuses unknown dialect names at setup', () => {
    const make = (dialects: unknown) =>
      createA2AHandler({ agentCard: card, executor: fixture.executor, dialects: dialects as ['sessions'] });
    expect(() => make(['session'])).toThrow(/unknown dialect "session" in dialects \(known: sessions, paraphrase\)/);
    expect(() => make('sessions')).toThrow(/dialects must be an array/);
    expect(() => make(['sessions', 'paraphrase'])).not.toThrow();
  });
});

describe('v0.2 authenticatedExtendedCard over HTTP GET', () => {
  let secured: TestServer;
  beforeAll(async () => {
    secured = await startServer({
      agentCard: {
        ...card,
        capabilities: { extendedAgentCard: true },
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      },
      extendedAgentCard: (user) => {
        if (user.id === 'mallory') throw new A2AError('PermissionDenied', 'Not for you');
        return { ...card, name: 'Extended agent' };
      },
      executor: fixture.executor,
    });
  });
  afterAll(() => secured.close());

  it('answers the v0.2/v0.3 card to an authenticated caller, 401 with a challenge, 403', async () => {
    const ok = await secured.rest('GET', '/agent/authenticatedExtendedCard', undefined, { 'x-user': 'alice' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Extended agent', url: `${secured.url}/`, protocolVersion: '0.3.0' });
    const anonymous = await secured.rest('GET', '/agent/authenticatedExtendedCard');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="a2a"');
    const denied = await secured.rest('GET', '/agent/authenticatedExtendedCard', undefined, { 'x-user': 'mallory' });
    expect(denied.status).toBe(403);
    expect((await secured.rest('POST', '/agent/authenticatedExtendedCard', {}, { 'x-user': 'alice' })).status).toBe(
      405,
    );
    // Not declared: not a route.
    expect((await off.rest('GET', '/agent/authenticatedExtendedCard')).status).toBe(404);
  });
});

describe('dialects next to the versions on by default', () => {
  let both: TestServer;
  beforeAll(async () => {
    both = await startServer({ agentCard, executor: fixture.executor, dialects: ['sessions', 'paraphrase'] });
  });
  afterAll(() => both.close());

  it('leaves every v1.0 and v0.3 route as it was, tenants called `sessions` or `tasks` included', async () => {
    const message = (text: string) => ({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
    });
    const sent = await both.rest('POST', '/message:send', message('v1'));
    const id = sent.body.task.id;
    expect((await both.rest('GET', `/tasks/${id}`)).body.id).toBe(id);
    expect((await both.rest('POST', `/tasks/${id}:cancel`, {})).status).toBe(400);
    expect((await both.rest('GET', '/extendedAgentCard')).status).toBe(400);
    expect((await both.rest('GET', `/v1/tasks/${id}`)).body.id).toBe(id);
    // Tenant-prefixed v1.0 routes whose tenant looks like a dialect path.
    const inTenant = await both.rest('POST', '/sessions/message:send', message('tenant'));
    expect(inTenant.status).toBe(200);
    const tenantTask = inTenant.body.task.id;
    expect((await both.rest('GET', '/sessions/tasks')).body.tasks.map((t: { id: string }) => t.id)).toEqual([
      tenantTask,
    ]);
    expect((await both.rest('GET', `/tasks/tasks/${tenantTask}`)).status).toBe(404); // tenant `tasks`: not its task
    expect((await both.rest('GET', `/sessions/tasks/${tenantTask}`)).body.id).toBe(tenantTask);
    // A method v1.0 does not serve on its path goes to the dialect that does.
    expect((await both.rest('DELETE', `/tasks/${id}`)).body.code).toBe(-32002);
  });
});
