import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureExecutor } from './agent-fixture.js';
import { card, startServer, type TestServer, userMessage } from './helpers.js';

let s: TestServer;
const fixture = fixtureExecutor();
beforeAll(async () => {
  s = await startServer({ agentCard: card, executor: fixture.executor });
});
afterAll(() => s.close());

const send = (text: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  s.rpc('SendMessage', { message: userMessage(text), ...extra }, headers);

describe('JSON-RPC binding over HTTP', () => {
  it('SendMessage blocks until the task completes and returns it with artifacts and history', async () => {
    const { status, body } = await send('hello ünïcødé ✓');
    expect(status).toBe(200);
    expect(body.jsonrpc).toBe('2.0');
    const task = body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].text).toBe('hello ünïcødé ✓');
    expect(task.history[0]).toMatchObject({ role: 'ROLE_USER', taskId: task.id, contextId: task.contextId });
    expect(task.status.message.parts[0].text).toBe('echo: hello ünïcødé ✓');
  });

  it('answers with a direct message and stores no task', async () => {
    const { body } = await send('reply hi');
    expect(body.result.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'you said hi' }] });
    expect(body.result.message.contextId).toBeTruthy();
    expect((await s.rpc('ListTasks', { contextId: body.result.message.contextId })).body.result.totalSize).toBe(0);
  });

  it('keeps a client contextId, continues multi-turn and refuses messages to finished tasks', async () => {
    const first = (await send('ask', { message: userMessage('ask', { contextId: 'ctx-1' }) })).body.result.task;
    expect(first.contextId).toBe('ctx-1');
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const second = (await s.rpc('SendMessage', { message: userMessage('ask Ada', { taskId: first.id }) })).body.result
      .task;
    expect(second.id).toBe(first.id);
    expect(second.status.state).toBe('TASK_STATE_COMPLETED');
    expect(second.artifacts[0].parts[0].text).toBe('Ada');
    expect(second.history.filter((m: any) => m.role === 'ROLE_USER')).toHaveLength(2);
    const late = await s.rpc('SendMessage', { message: userMessage('more', { taskId: first.id }) });
    expect(late.body.error.code).toBe(-32004);
    const wrongContext = await s.rpc('SendMessage', {
      message: userMessage('x', { taskId: first.id, contextId: 'other' }),
    });
    expect(wrongContext.body.error.code).toBe(-32602);
  });

  it('returnImmediately returns the task at once; GetTask trims history', async () => {
    const { body } = await send('background imm', { configuration: { returnImmediately: true } });
    const task = body.result.task;
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
    fixture.release('imm');
    for (let i = 0; i < 100; i++) {
      const got = (await s.rpc('GetTask', { id: task.id })).body.result;
      if (got.status.state === 'TASK_STATE_COMPLETED') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const got = (await s.rpc('GetTask', { id: task.id, historyLength: 1 })).body.result;
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.history).toHaveLength(1);
    expect((await s.rpc('GetTask', { id: task.id, historyLength: 0 })).body.result.history).toBeUndefined();
  });

  it('blocking SendMessage returns when execute() returns while work goes on', async () => {
    const task = (await send('background later')).body.result.task;
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    fixture.release('later');
    await new Promise((r) => setTimeout(r, 50));
    expect((await s.rpc('GetTask', { id: task.id })).body.result.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('an executor that throws fails the task with a useful message and the server keeps serving', async () => {
    const task = (await send('boom')).body.result.task;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message.parts[0].text).toContain('kaboom');
    expect((await send('still alive')).body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('cancels a running task, aborting the executor signal; finished tasks are not cancelable', async () => {
    const task = (await send('hang', { configuration: { returnImmediately: true } })).body.result.task;
    const canceled = (await s.rpc('CancelTask', { id: task.id })).body.result;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(fixture.aborted).toContain(task.id);
    expect((await s.rpc('CancelTask', { id: task.id })).body.error.code).toBe(-32002); // already canceled
    const done = (await send('x')).body.result.task;
    expect((await s.rpc('CancelTask', { id: done.id })).body.error.code).toBe(-32002);
    expect((await s.rpc('CancelTask', { id: 'nope' })).body.error.code).toBe(-32001);
  });

  it.each(['hang', 'stubborn'])(
    'a blocking SendMessage whose task is canceled returns it CANCELED (%s executor)',
    async (word) => {
      const contextId = crypto.randomUUID();
      const blocking = s.rpc('SendMessage', { message: userMessage(`${word} c-${word}`, { contextId }) });
      let id: string | undefined;
      for (let i = 0; i < 200 && !id; i++) {
        id = (await s.rpc('ListTasks', { contextId })).body.result.tasks[0]?.id;
        if (!id) await new Promise((r) => setTimeout(r, 5));
      }
      expect((await s.rpc('CancelTask', { id })).body.result.status.state).toBe('TASK_STATE_CANCELED');
      const answered = (await blocking).body.result.task;
      expect(answered).toMatchObject({ id, status: { state: 'TASK_STATE_CANCELED' } });
      fixture.release(`c-${word}`);
    },
  );

  it('ListTasks pages newest first and returns all four fields', async () => {
    const contextId = crypto.randomUUID();
    for (let i = 0; i < 3; i++) await s.rpc('SendMessage', { message: userMessage(`n${i}`, { contextId }) });
    const page1 = (await s.rpc('ListTasks', { contextId, pageSize: 2 })).body.result;
    expect(page1.tasks).toHaveLength(2);
    expect(page1).toMatchObject({ pageSize: 2, totalSize: 3 });
    expect(page1.nextPageToken).not.toBe('');
    expect(page1.tasks[0].artifacts).toBeUndefined();
    expect(page1.tasks[0].status.timestamp >= page1.tasks[1].status.timestamp).toBe(true);
    const page2 = (
      await s.rpc('ListTasks', { contextId, pageSize: 2, pageToken: page1.nextPageToken, includeArtifacts: true })
    ).body.result;
    expect(page2).toMatchObject({ pageSize: 1, totalSize: 3, nextPageToken: '' });
    expect(page2.tasks[0].artifacts).toHaveLength(1);
    const empty = (await s.rpc('ListTasks', { contextId: 'none' })).body.result;
    expect(empty).toEqual({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
  });

  it('reads an unrecognized or unspecified status filter as no filter (JSON-RPC and the REST query)', async () => {
    const contextId = crypto.randomUUID();
    await s.rpc('SendMessage', { message: userMessage('filtered', { contextId }) });
    // `@a2a/js-sdk` 1.3 sends `status: "UNRECOGNIZED"` for `listTasks({})` (ts-proto's unset enum).
    for (const status of ['UNRECOGNIZED', -1, 'TASK_STATE_UNSPECIFIED', 0]) {
      const r = await s.rpc('ListTasks', { contextId, status });
      expect(r.body.result?.totalSize, String(status)).toBe(1);
    }
    for (const status of ['UNRECOGNIZED', 'TASK_STATE_UNSPECIFIED', '0']) {
      const r = await s.rest('GET', `/tasks?contextId=${contextId}&status=${status}`);
      expect([r.status, r.body.totalSize], status).toEqual([200, 1]);
    }
  });

  it('scopes tasks to the caller', async () => {
    const task = (await send('mine', {}, { 'x-user': 'alice' })).body.result.task;
    expect((await s.rpc('GetTask', { id: task.id }, { 'x-user': 'bob' })).body.error.code).toBe(-32001);
    expect((await s.rpc('CancelTask', { id: task.id }, { 'x-user': 'bob' })).body.error.code).toBe(-32001);
    expect((await s.rpc('ListTasks', {}, { 'x-user': 'bob' })).body.result.totalSize).toBe(0);
    expect((await s.rpc('GetTask', { id: task.id }, { 'x-user': 'alice' })).body.result.id).toBe(task.id);
  });

  it('push config CRUD keeps the client id and lists it', async () => {
    const task = (await send('p')).body.result.task;
    const created = (
      await s.rpc('CreateTaskPushNotificationConfig', {
        task_id: task.id,
        id: 'cfg-1',
        url: 'https://example.com/hook',
        token: 't',
      })
    ).body.result;
    expect(created).toMatchObject({ taskId: task.id, id: 'cfg-1', url: 'https://example.com/hook' });
    expect((await s.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' })).body.result.id).toBe(
      'cfg-1',
    );
    expect((await s.rpc('ListTaskPushNotificationConfigs', { taskId: task.id })).body.result.configs).toHaveLength(1);
    expect((await s.rpc('DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' })).body.result).toEqual({});
    const missing = (await s.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' })).body.error;
    expect(missing.code).toBe(-32001);
    expect(missing.message).toContain('not found');
    expect((await s.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url: 'ftp://x' })).body.error.code).toBe(
      -32602,
    );
  });

  it('GetExtendedAgentCard without the capability is unsupported', async () => {
    expect((await s.rpc('GetExtendedAgentCard')).body.error.code).toBe(-32004);
  });
});

describe('JSON-RPC bad input', () => {
  const raw = (body: string, contentType = 'application/json') =>
    fetch(`${s.url}/`, { method: 'POST', headers: { 'content-type': contentType }, body }).then(async (r) => ({
      status: r.status,
      body: await r.json().catch(() => null),
    }));

  it.each([
    ['malformed JSON', '{"jsonrpc": "2.0", ', -32700],
    ['an array (batch)', '[]', -32600],
    ['a string', '"hi"', -32600],
    ['missing jsonrpc', '{"id":1,"method":"GetTask"}', -32600],
    ['wrong jsonrpc', '{"jsonrpc":"1.0","id":1,"method":"GetTask"}', -32600],
    ['missing method', '{"jsonrpc":"2.0","id":1}', -32600],
    ['object id', '{"jsonrpc":"2.0","id":{},"method":"GetTask"}', -32600],
    ['unknown method', '{"jsonrpc":"2.0","id":1,"method":"SendMessageXXX"}', -32601],
    ['prototype method', '{"jsonrpc":"2.0","id":1,"method":"toString"}', -32601],
    ['array params', '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[]}', -32602],
    ['empty key', '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"":1}}', -32602],
  ])('%s ⇒ %s with HTTP 200', async (_name, body, code) => {
    const r = await raw(body);
    expect(r.status).toBe(200);
    expect(r.body.error.code).toBe(code);
  });

  it('suggests the v1.0 name for a method spelt in another case', async () => {
    for (const method of ['sendMessage', 'send_message', 'GETTASK']) {
      const r = await raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method }));
      expect(r.body.error.code).toBe(-32601);
      expect(r.body.error.message).toMatch(/did you mean (SendMessage|GetTask)\?/);
    }
    expect((await raw('{"jsonrpc":"2.0","id":1,"method":"Nope"}')).body.error.message).toBe('Method not found: Nope');
  });

  it('echoes the request id on errors', async () => {
    const r = await raw('{"jsonrpc":"2.0","id":"abc","method":"Nope"}');
    expect(r.body.id).toBe('abc');
  });

  it.each([
    ['missing parts', { message: { messageId: 'm', role: 'ROLE_USER' } }, 'message.parts'],
    ['empty parts', { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } }, 'message.parts'],
    ['parts not an array', { message: { messageId: 'm', role: 'ROLE_USER', parts: 'invalid' } }, 'message.parts'],
    ['bad role', { message: { messageId: 'm', role: 'ROLE_BOSS', parts: [{ text: 'x' }] } }, 'message.role'],
    ['missing messageId', { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } }, 'message.messageId'],
    ['part without content', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{}] } }, 'message.parts.0'],
  ])('SendMessage with %s ⇒ -32602 naming the field, nothing stored', async (_name, params, field) => {
    const before = (await s.rpc('ListTasks', {})).body.result.totalSize;
    const r = await s.rpc('SendMessage', params);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toContain(field);
    expect((await s.rpc('ListTasks', {})).body.result.totalSize).toBe(before);
  });

  it.each([
    ['negative historyLength', 'GetTask', { id: 'x', historyLength: -1 }],
    ['page size 0', 'ListTasks', { pageSize: 0 }],
    ['page size 101', 'ListTasks', { pageSize: 101 }],
    ['bad page token', 'ListTasks', { pageToken: 'not-a-token' }],
    ['unknown status', 'ListTasks', { status: 'TASK_STATE_SLEEPING' }],
    ['bad timestamp', 'ListTasks', { statusTimestampAfter: 'last tuesday' }],
    ['missing id', 'GetTask', {}],
  ])('%s ⇒ -32602', async (_name, method, params) => {
    expect((await s.rpc(method, params)).body.error.code).toBe(-32602);
  });

  it('refuses a wrong content type with 415 and an oversize body with 413', async () => {
    const wrongType = await raw('{}', 'text/plain');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe(-32005); // ContentTypeNotSupported
    const named = await raw('{"jsonrpc":"2.0","id":41,"method":"ListTasks"}', 'text/plain');
    expect(named.body).toMatchObject({ id: 41, error: { code: -32005 } }); // the id is echoed when readable
    const small = await startServer({ agentCard: card, executor: fixture.executor, maxBodyBytes: 1024 });
    try {
      const r = await fetch(`${small.url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pad: 'x'.repeat(2000) }),
      });
      expect(r.status).toBe(413);
      expect((await r.json()).error.code).toBe(-32600);
    } finally {
      await small.close();
    }
  });

  it("uses the handler's own context hook when the mount gives no caller", async () => {
    const secured = await startServer({
      agentCard: { ...card, securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } } },
      executor: fixture.executor,
      context: (request) =>
        request.headers.get('authorization') === 'Bearer good' ? { user: { id: 'api-client' } } : undefined,
    });
    try {
      const call = (headers: Record<string, string>) =>
        secured.rpc('SendMessage', { message: userMessage('hi') }, headers);
      const refused = await call({});
      expect(refused.status).toBe(401);
      expect(refused.body.id).toEqual(expect.any(Number)); // echoed, not null
      expect((await call({ authorization: 'Bearer bad' })).status).toBe(401);
      const ok = await call({ authorization: 'Bearer good' });
      expect(ok.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      // A caller named by the mount (here the x-user header) wins over the hook.
      const mounted = await call({ authorization: 'Bearer good', 'x-user': 'alice' });
      const listed = await secured.rpc('ListTasks', {}, { 'x-user': 'alice' });
      expect(listed.body.result.tasks.map((t: { id: string }) => t.id)).toEqual([mounted.body.result.task.id]);
    } finally {
      await secured.close();
    }
  });

  it('accepts application/a2a+json with a charset', async () => {
    const r = await fetch(`${s.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json; charset=utf-8' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
    });
    expect((await r.json()).result.tasks).toBeDefined();
  });

  it('rejects an explicitly requested version it does not serve, echoing the request id', async () => {
    const r = await s.rpc('ListTasks', {}, { 'A2A-Version': '9.9' });
    expect(r.body.error.code).toBe(-32009);
    const echoed = await fetch(`${s.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '9.9' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'v-7', method: 'ListTasks', params: {} }),
    });
    expect(await echoed.json()).toMatchObject({ id: 'v-7', error: { code: -32009 } });
    expect((await s.rpc('ListTasks', {}, { 'A2A-Version': '1.0.1' })).body.result).toBeDefined();
  });
});
