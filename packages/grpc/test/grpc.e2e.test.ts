import { status as code, type ServiceError } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, type Harness, startHarness, testExecutor, userMessage } from './harness.js';
import { statusOf } from './status.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: ServiceError) => error,
  );

describe('A2AService over HTTP/2 on 127.0.0.1', () => {
  it('serves every unary RPC, sharing tasks with JSON-RPC both ways', async () => {
    h = await startHarness();
    const { client } = h;
    const sent = await client.unary('SendMessage', userMessage('ask'));
    const task = sent.task as { id: string; contextId: string; status: { state: string } };
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    // Made over gRPC, read over JSON-RPC.
    const overRpc = await fetch(`${h.httpUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: task.id } }),
    }).then((r) => r.json());
    expect(overRpc.result.id).toBe(task.id);

    // Made over JSON-RPC, read over gRPC.
    const made = await fetch(`${h.httpUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'SendMessage', params: userMessage('hello') }),
    }).then((r) => r.json());
    const got = await client.unary('GetTask', { id: made.result.task.id, historyLength: 0 });
    expect(got).toMatchObject({ id: made.result.task.id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(got.history).toBeUndefined();

    const direct = await client.unary('SendMessage', userMessage('reply hi'));
    expect(direct.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'you said hi' }] });

    const list = await client.unary('ListTasks', { pageSize: 10 });
    expect((list.tasks as unknown[]).length).toBe(2);

    const config = await client.unary('CreateTaskPushNotificationConfig', {
      taskId: task.id,
      id: 'c1',
      url: 'https://example.com/hook',
      token: 'secret',
    });
    expect(config).toMatchObject({ taskId: task.id, id: 'c1', url: 'https://example.com/hook' });
    expect(await client.unary('GetTaskPushNotificationConfig', { taskId: task.id, id: 'c1' })).toMatchObject({
      id: 'c1',
    });
    const configs = await client.unary('ListTaskPushNotificationConfigs', { taskId: task.id });
    expect(configs.configs).toHaveLength(1);
    expect(await client.unary('DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'c1' })).toEqual({});

    const canceled = await client.unary('CancelTask', { id: task.id });
    expect(canceled.status).toMatchObject({ state: 'TASK_STATE_CANCELED' });

    const error = await failure(client.unary('GetExtendedAgentCard', {}));
    expect(error.code).toBe(code.FAILED_PRECONDITION);
    expect(statusOf(error).errorInfo?.reason).toBe('UNSUPPORTED_OPERATION'); // the card declares none
  });

  it('returns the extended card with the gRPC interface, and lists it in the served card', async () => {
    h = await startHarness({
      handler: {
        agentCard: { ...{ ...card() }, capabilities: { streaming: true, extendedAgentCard: true } },
        extendedAgentCard: { ...card(), description: 'the extended one' },
      },
    });
    const extended = await h.client.unary('GetExtendedAgentCard', {}, { authorization: 'Bearer dave' });
    expect(extended.description).toBe('the extended one');
    expect(extended.supportedInterfaces).toEqual([{ url: h.address, protocolBinding: 'GRPC', protocolVersion: '1.0' }]);
    const served = await fetch(`${h.httpUrl}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } });
    const { supportedInterfaces } = await served.json();
    expect(supportedInterfaces).toContainEqual({ url: h.address, protocolBinding: 'GRPC', protocolVersion: '1.0' });
    await h.grpc.close();
    const after = await fetch(`${h.httpUrl}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } });
    expect(JSON.stringify(await after.json())).not.toContain('GRPC');
  });

  it('streams SendStreamingMessage and SubscribeToTask; a client cancel ends the stream, not the task', async () => {
    const agent = testExecutor();
    h = await startHarness({ executor: agent.executor });
    const stream = h.client.stream('SendStreamingMessage', userMessage('gated g1'));
    const first = await new Promise<Record<string, unknown>>((resolve) => stream.once('data', resolve));
    const taskId = (first.task as { id: string }).id;
    const watcher = h.client.stream('SubscribeToTask', { id: taskId });
    const watched = collect(watcher);
    await new Promise((resolve) => watcher.once('data', resolve));
    // Cancel the first stream mid-task.
    const ended = collect(stream);
    stream.cancel();
    expect((await ended).error?.code).toBe(code.CANCELLED);
    agent.release('g1');
    const { events, error } = await watched;
    expect(error).toBeUndefined();
    expect(events[0]).toHaveProperty('task');
    expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(events.some((e) => 'artifactUpdate' in e)).toBe(true);
    const task = await h.client.unary('GetTask', { id: taskId });
    expect(task.status).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
  });

  it('a client that stops reading holds the stream back (backpressure), then gets every event in order', async () => {
    h = await startHarness();
    const stream = h.client.stream('SendStreamingMessage', userMessage('many 300'));
    stream.pause(); // nothing read for a while: the server's writes fill the window and wait for 'drain'
    await new Promise((resolve) => setTimeout(resolve, 200));
    const all = collect(stream);
    stream.resume();
    const { events, error } = await all;
    expect(error).toBeUndefined();
    const chunks = events.flatMap((e) => {
      const update = e.artifactUpdate as { artifact: { parts: { text: string }[] } } | undefined;
      return update ? update.artifact.parts.map((p) => p.text) : [];
    });
    expect(chunks).toEqual(Array.from({ length: 300 }, (_, i) => `c${i}`));
    expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('close() ends open streams with UNAVAILABLE and takes GRPC out of the card', async () => {
    const agent = testExecutor();
    h = await startHarness({ executor: agent.executor });
    const stream = h.client.stream('SendStreamingMessage', userMessage('gated shut'));
    await new Promise((resolve) => stream.once('data', resolve));
    const ended = collect(stream);
    await h.grpc.close({ timeoutMs: 500 });
    expect((await ended).error?.code).toBe(code.UNAVAILABLE);
    agent.release('shut');
  });

  it('answers errors as google.rpc.Status with ErrorInfo (and BadRequest for invalid fields)', async () => {
    h = await startHarness();
    const notFound = await failure(h.client.unary('GetTask', { id: 'nope' }));
    expect(notFound.code).toBe(code.NOT_FOUND);
    expect(statusOf(notFound)).toMatchObject({
      code: code.NOT_FOUND,
      errorInfo: { reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org', metadata: { taskId: 'nope' } },
    });
    const invalid = await failure(h.client.unary('SendMessage', { message: { role: 'ROLE_USER', parts: [] } }));
    expect(invalid.code).toBe(code.INVALID_ARGUMENT);
    const details = statusOf(invalid);
    expect(details.errorInfo?.reason).toBe('INVALID_PARAMS');
    expect(details.fieldViolations?.map((v) => v.field)).toContain('message.messageId');
    const streamError = await collect(h.client.stream('SubscribeToTask', { id: 'nope' }));
    expect(streamError.error?.code).toBe(code.NOT_FOUND);
    expect(statusOf(streamError.error as ServiceError).errorInfo?.reason).toBe('TASK_NOT_FOUND');
  });

  it('honours a2a-version, a2a-extensions and the context hook', async () => {
    const agent = testExecutor();
    h = await startHarness({ executor: agent.executor });
    const wrong = await failure(h.client.unary('GetTask', { id: 'x' }, { 'a2a-version': '99.0' }));
    expect(wrong.code).toBe(code.FAILED_PRECONDITION);
    expect(statusOf(wrong).errorInfo?.reason).toBe('VERSION_NOT_SUPPORTED');
    await expect(h.client.unary('ListTasks', {}, { 'a2a-version': '1.0' })).resolves.toBeDefined();

    const { response, headers } = await h.client.unaryWithMetadata('SendMessage', userMessage('hi'), {
      'a2a-extensions': 'urn:test:ext, urn:unknown',
      authorization: 'Bearer alice',
    });
    expect(headers.get('a2a-extensions')).toEqual(['urn:test:ext']);
    expect(agent.seen.at(-1)).toMatchObject({ user: 'alice', extensions: ['urn:test:ext'] });
    // Tasks are the caller's: bob does not see alice's.
    const id = (response.task as { id: string }).id;
    expect((await failure(h.client.unary('GetTask', { id }, { authorization: 'Bearer bob' }))).code).toBe(
      code.NOT_FOUND,
    );
    await expect(h.client.unary('GetTask', { id }, { authorization: 'Bearer alice' })).resolves.toMatchObject({ id });
  });

  it("hands the context hook's state to the executor (ctx.state)", async () => {
    h = await startHarness({
      executor: { execute: (ctx) => ctx.reply(JSON.stringify(ctx.state)) },
      grpc: { context: (metadata) => ({ state: { trace: metadata.get('x-trace')[0] } }) },
    });
    const response = await h.client.unary('SendMessage', userMessage('hi'), { 'x-trace': 't-1' });
    expect(JSON.parse((response.message as { parts: { text: string }[] }).parts[0]?.text ?? '')).toEqual({
      trace: 't-1',
    });
  });

  it('maps statuses through statusCodes (the v1.0.0 table for VersionNotSupported)', async () => {
    h = await startHarness({ grpc: { statusCodes: { VersionNotSupported: 'UNIMPLEMENTED' } } });
    const error = await failure(h.client.unary('GetTask', { id: 'x' }, { 'a2a-version': '0.3' }));
    expect(error.code).toBe(code.UNIMPLEMENTED);
    expect(statusOf(error).code).toBe(code.UNIMPLEMENTED);
  });

  it('refuses callers of a secured card with UNAUTHENTICATED', async () => {
    h = await startHarness({
      handler: {
        agentCard: {
          ...card(),
          securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        },
      },
    });
    const error = await failure(h.client.unary('ListTasks', {}));
    expect(error.code).toBe(code.UNAUTHENTICATED);
    await expect(h.client.unary('ListTasks', {}, { authorization: 'Bearer carol' })).resolves.toBeDefined();
  });
});

function card() {
  return {
    name: 'gRPC test agent',
    description: 'An agent for the gRPC binding tests',
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: true },
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
  };
}
