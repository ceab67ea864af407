import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListTasksResponseSchema, SendMessageResponseSchema } from '../src/schemas/index.js';
import { fixtureExecutor } from './agent-fixture.js';
import { card, eventually, sseReader, startServer, type TestServer, userMessage } from './helpers.js';

let s: TestServer;
const fixture = fixtureExecutor();
beforeAll(async () => {
  s = await startServer({ agentCard: card, executor: fixture.executor, keepAliveMs: 50 });
});
afterAll(() => s.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('HTTP+JSON binding', () => {
  it('serves every operation at the spec paths, also behind a tenant segment', async () => {
    const sent = await s.rest('POST', '/message:send', { message: userMessage('rest') });
    expect(sent.status).toBe(200);
    expect(SendMessageResponseSchema.safeParse(sent.body).success).toBe(true);
    // Plain JSON unless the client names application/a2a+json (Accept or its own Content-Type).
    expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
    const a2aJson = { accept: 'application/a2a+json' };
    const negotiated = await s.rest('POST', '/message:send', { message: userMessage('rest') }, a2aJson);
    expect(negotiated.headers.get('content-type')).toMatch(/^application\/a2a\+json/);
    const notFound = await s.rest('GET', '/tasks/nope', undefined, a2aJson);
    expect([notFound.status, notFound.headers.get('content-type')]).toEqual([404, 'application/a2a+json']);
    const task = sent.body.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await s.rest('GET', `/tasks/${task.id}?historyLength=1`)).body.history).toHaveLength(1);
    const listed = await s.rest('GET', `/tasks?contextId=${task.contextId}&pageSize=5&includeArtifacts=true`);
    expect(listed.body).toMatchObject({ totalSize: 1, pageSize: 1, nextPageToken: '' });
    expect(ListTasksResponseSchema.parse(listed.body)).toEqual(listed.body); // canonical ProtoJSON out
    expect(listed.body.tasks[0].artifacts).toHaveLength(1);
    const cfg = await s.rest('POST', `/tasks/${task.id}/pushNotificationConfigs`, {
      id: 'c1',
      url: 'https://example.com/h',
    });
    expect(cfg.body).toMatchObject({ id: 'c1', taskId: task.id });
    expect((await s.rest('GET', `/tasks/${task.id}/pushNotificationConfigs/c1`)).body.url).toBe(
      'https://example.com/h',
    );
    expect((await s.rest('GET', `/tasks/${task.id}/pushNotificationConfigs`)).body.configs).toHaveLength(1);
    expect((await s.rest('DELETE', `/tasks/${task.id}/pushNotificationConfigs/c1`)).status).toBe(200);
    const tenantTask = (await s.rest('POST', '/acme/message:send', { message: userMessage('t') })).body.task;
    expect((await s.rest('GET', `/acme/tasks/${tenantTask.id}`)).status).toBe(200);
    expect((await s.rest('GET', `/tasks/${tenantTask.id}`)).status).toBe(404); // another tenant's task
  });

  it('cancels with an empty body and maps errors to HTTP statuses with a google.rpc.Status body', async () => {
    const task = (
      await s.rest('POST', '/message:send', {
        message: userMessage('hang'),
        configuration: { returnImmediately: true },
      })
    ).body.task;
    const canceled = await fetch(`${s.url}/tasks/${task.id}:cancel`, { method: 'POST' });
    expect(canceled.status).toBe(200);
    expect((await canceled.json()).status.state).toBe('TASK_STATE_CANCELED');
    const again = await s.rest('POST', `/tasks/${task.id}:cancel`, {});
    expect(again.status).toBe(400); // already canceled: TaskNotCancelable
    const missing = await s.rest('GET', '/tasks/does-not-exist');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(missing.body.error.details[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'TASK_NOT_FOUND',
      domain: 'a2a-protocol.org',
    });
    const bad = await s.rest('POST', '/message:send', { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('message.messageId');
    expect((await s.rest('GET', '/tasks?pageSize=500')).status).toBe(400);
    expect((await s.rest('GET', '/tasks?status=NOPE')).status).toBe(400);
    const text = await fetch(`${s.url}/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    // google.rpc.Status: the code of ContentTypeNotSupported (a bad request, not an unimplemented method)
    expect((await text.json()).error).toMatchObject({ code: 415, status: 'INVALID_ARGUMENT' });
    const broken = await fetch(`${s.url}/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(broken.status).toBe(400);
    expect((await s.rest('DELETE', '/message:send')).status).toBe(405);
  });

  it('leaves unknown paths to the host', async () => {
    expect((await fetch(`${s.url}/not-a2a/at-all/here`)).status).toBe(404);
    expect(await (await fetch(`${s.url}/favicon.ico`)).text()).toBe('Not Found');
  });
});

describe('agent card', () => {
  it('serves absolute interface URLs with caching headers and 304', async () => {
    const r = await fetch(`${s.url}/.well-known/agent-card.json`);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.supportedInterfaces).toEqual([
      { url: `${s.url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: s.url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `${s.url}/`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: s.url, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(body).toMatchObject({
      name: 'Test agent',
      defaultInputModes: ['text/plain'],
      capabilities: { streaming: true },
    });
    const etag = r.headers.get('etag') as string;
    expect(etag).toBeTruthy();
    expect(r.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(r.headers.get('last-modified')).toBeTruthy();
    expect((await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
  });
});

describe('SSE streaming', () => {
  it('streams the task first, then each event as it happens, and closes when done', async () => {
    const r = await post('/message:stream', { message: userMessage('gated s1') });
    expect(r.headers.get('content-type')).toContain('text/event-stream');
    expect(r.headers.get('cache-control')).toContain('no-cache');
    const events = sseReader(r);
    const first = JSON.parse((await events.next())?.data ?? '');
    expect(first.task.status.state).toBe('TASK_STATE_SUBMITTED');
    const working = JSON.parse((await events.next())?.data ?? '');
    expect(working.statusUpdate.status.state).toBe('TASK_STATE_WORKING');
    // The artifact is not produced until the test releases it: this event really arrived incrementally.
    fixture.release('s1');
    const artifact = JSON.parse((await events.next())?.data ?? '');
    expect(artifact.artifactUpdate.artifact.parts[0].text).toBe('chunk 1');
    fixture.release('s1-2');
    const rest = await events.all();
    expect(JSON.parse(rest.at(-1)?.data ?? '').statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('wraps events in JSON-RPC envelopes with the request id and sends keep-alives', async () => {
    const r = await post('/', {
      jsonrpc: '2.0',
      id: 'st-1',
      method: 'SendStreamingMessage',
      params: { message: userMessage('gated ka') },
    });
    const events = sseReader(r);
    const first = JSON.parse((await events.next())?.data ?? '');
    expect(first).toMatchObject({ jsonrpc: '2.0', id: 'st-1' });
    expect(first.result.task.id).toBeTruthy();
    await events.next(); // working
    await new Promise((r) => setTimeout(r, 130));
    fixture.release('ka');
    fixture.release('ka-2');
    const all = await events.all();
    expect(events.comments.length).toBeGreaterThan(0); // sent while the task was idle
    expect(all.every((e) => JSON.parse(e.data).id === 'st-1')).toBe(true);
  });

  it('answers an early error as plain JSON, not a stream', async () => {
    const r = await post('/', { jsonrpc: '2.0', id: 3, method: 'SubscribeToTask', params: { id: 'missing' } });
    expect(r.headers.get('content-type')).toContain('application/json');
    expect((await r.json()).error.code).toBe(-32001);
    const rest = await post('/tasks/missing:subscribe', {});
    expect(rest.status).toBe(404);
  });

  it('streams a 4000-chunk artifact in order without losing any', async () => {
    const r = await post('/message:stream', { message: userMessage('chunks 4000') });
    const events = (await sseReader(r).all()).map((e) => JSON.parse(e.data));
    const chunks = events.filter((e) => e.artifactUpdate).map((e) => e.artifactUpdate.artifact.parts[0].text);
    expect(chunks).toHaveLength(4000);
    expect(chunks[3999]).toBe('c3999');
    expect(chunks.every((c, i) => c === `c${i}`)).toBe(true);
    const task = (await s.rest('GET', `/tasks/${events[0].task.id}`)).body;
    expect(task.artifacts[0].parts).toHaveLength(4000);
  });

  it('SubscribeToTask sends the snapshot first, then live events; a finished task cannot be subscribed', async () => {
    const task = (
      await s.rest('POST', '/message:send', {
        message: userMessage('background sub'),
        configuration: { returnImmediately: true },
      })
    ).body.task;
    await eventually(async () => (await s.rest('GET', `/tasks/${task.id}`)).body.status.state === 'TASK_STATE_WORKING');
    const events = sseReader(await fetch(`${s.url}/tasks/${task.id}:subscribe`));
    const snapshot = JSON.parse((await events.next())?.data ?? '');
    expect(snapshot.task).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_WORKING' } });
    fixture.release('sub');
    const update = JSON.parse((await events.next())?.data ?? '');
    expect(update.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await events.next()).toBeUndefined();
    const terminal = await s.rpc('SubscribeToTask', { id: task.id });
    expect(terminal.body.error.code).toBe(-32004);
  });

  it('a client disconnect stops the stream but not the task', async () => {
    const controller = new AbortController();
    const r = await fetch(`${s.url}/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: userMessage('gated dc') }),
      signal: controller.signal,
    });
    const events = sseReader(r);
    const taskId = JSON.parse((await events.next())?.data ?? '').task.id;
    controller.abort();
    // The server lets go of the stream's subscription…
    const subscribers = (s.a2a.requestHandler.store as unknown as { subscribers: { has(taskId: string): boolean } })
      .subscribers;
    await eventually(() => !subscribers.has(taskId));
    // …and the task itself goes on.
    fixture.release('dc');
    fixture.release('dc-2');
    await eventually(
      async () => (await s.rest('GET', `/tasks/${taskId}`)).body.status.state === 'TASK_STATE_COMPLETED',
    );
  });

  it('a mid-stream failure ends with an error event or the FAILED state, then closes', async () => {
    const r = await post('/message:stream', { message: userMessage('boom') });
    const events = await sseReader(r).all();
    const last = JSON.parse(events.at(-1)?.data ?? '');
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_FAILED');
  });
});

describe('capabilities, extensions and auth', () => {
  it('refuses streaming and push when the card does not declare them', async () => {
    const plain = await startServer({ agentCard: { ...card, capabilities: {} }, executor: fixture.executor });
    try {
      expect((await plain.rpc('SendStreamingMessage', { message: userMessage('x') })).body.error.code).toBe(-32004);
      const task = (await plain.rpc('SendMessage', { message: userMessage('x') })).body.result.task;
      expect(
        (await plain.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url: 'https://e.com/h' })).body.error
          .code,
      ).toBe(-32003);
    } finally {
      await plain.close();
    }
  });

  it('requires declared-required extensions and echoes activated ones', async () => {
    const uri = 'https://example.com/ext/v1';
    const ext = await startServer({
      agentCard: { ...card, capabilities: { extensions: [{ uri, required: true }] } },
      executor: fixture.executor,
    });
    try {
      expect((await ext.rpc('SendMessage', { message: userMessage('x') })).body.error.code).toBe(-32008);
      const ok = await ext.rpc(
        'SendMessage',
        { message: userMessage('x') },
        { 'A2A-Extensions': `${uri}, https://unknown/ext` },
      );
      expect(ok.body.result.task).toBeDefined();
      expect(ok.headers.get('a2a-extensions')).toBe(uri);
    } finally {
      await ext.close();
    }
  });

  it('enforces declared security: 401 with WWW-Authenticate, public card, extended card for callers', async () => {
    const secured = await startServer({
      agentCard: {
        ...card,
        capabilities: { extendedAgentCard: true },
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      },
      extendedAgentCard: (user) => ({ ...card, name: `Card for ${user.id}` }),
      executor: fixture.executor,
    });
    try {
      const anonymous = await secured.rpc('ListTasks', {});
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
      expect((await fetch(`${secured.url}/.well-known/agent-card.json`)).status).toBe(200);
      const extended = await secured.rpc('GetExtendedAgentCard', undefined, { 'x-user': 'ann' });
      expect(extended.body.result.name).toBe('Card for ann');
      expect(extended.body.result.supportedInterfaces[0].url).toBe(`${secured.url}/`);
      expect((await secured.rest('GET', '/extendedAgentCard', undefined, { 'x-user': 'ann' })).status).toBe(200);
    } finally {
      await secured.close();
    }
  });
});
