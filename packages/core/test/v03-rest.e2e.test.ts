import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureExecutor } from './agent-fixture.js';
import { card, sseReader, startServer, type TestServer } from './helpers.js';

// The v0.3 HTTP+JSON binding (`/v1/...`): v0.3 proto ProtoJSON in (snake_case or camelCase, `content` parts), out
// with the proto's own field names, served by the same engine as every other wire.

let s: TestServer;
const fixture = fixtureExecutor();
beforeAll(async () => {
  s = await startServer({
    agentCard: { ...card, capabilities: { streaming: true, pushNotifications: true } },
    executor: fixture.executor,
  });
});
afterAll(() => s.close());

const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
const json = async (r: Response) => ({ status: r.status, type: r.headers.get('content-type'), body: await r.json() });
const protoMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  message_id: crypto.randomUUID(),
  role: 'ROLE_USER',
  content: [{ text }],
  ...extra,
});

describe('v0.3 HTTP+JSON binding', () => {
  it('sends (snake_case ProtoJSON), gets with history_length and answers in the v0.3 proto shape', async () => {
    const sent = await json(await post('/v1/message:send', { message: protoMessage('hello v03') }));
    expect(sent.status).toBe(200);
    expect(sent.type).toMatch(/^application\/json/);
    const task = sent.body.task;
    expect(task).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' }, context_id: expect.any(String) });
    expect(task.artifacts[0]).toMatchObject({ artifact_id: expect.any(String), parts: [{ text: 'hello v03' }] });
    expect(task.history[0]).toMatchObject({ role: 'ROLE_USER', content: [{ text: 'hello v03' }] });
    expect(task.status.message).toMatchObject({ role: 'ROLE_AGENT', content: [{ text: 'echo: hello v03' }] });

    const got = await json(await fetch(`${s.url}/v1/tasks/${task.id}?history_length=1`));
    expect(got.body.id).toBe(task.id);
    expect(got.body.history).toHaveLength(1);
    // The same task through the v1.0 binding.
    expect((await s.rest('GET', `/tasks/${task.id}`)).body.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('reads camelCase, kind-tagged parts, files and data; answers a direct message as `message`', async () => {
    const file = { kind: 'file', file: { uri: 'https://example.com/a.txt', mimeType: 'text/plain', name: 'a.txt' } };
    const sent = await json(
      await post('/v1/message:send', {
        message: { messageId: 'm-camel', role: 'user', parts: [{ kind: 'text', text: 'camel' }, file] },
      }),
    );
    expect(sent.body.task.history[0].content).toEqual([
      { text: 'camel' },
      { file: { file_with_uri: 'https://example.com/a.txt', mime_type: 'text/plain', name: 'a.txt' } },
    ]);
    const data = await json(
      await post('/v1/message:send', { message: protoMessage('x', { content: [{ data: { data: { k: 1 } } }] }) }),
    );
    expect(data.body.task.history[0].content).toEqual([{ data: { data: { k: 1 } } }]);
    const reply = await json(await post('/v1/message:send', { message: protoMessage('reply hi') }));
    expect(reply.body.message).toMatchObject({ role: 'ROLE_AGENT', content: [{ text: 'you said hi' }] });
  });

  it('cancels (TASK_STATE_CANCELLED) and names v0.3 errors with their v1.0 HTTP statuses', async () => {
    const started = await json(
      await post('/v1/message:send', { message: protoMessage('hang'), configuration: { blocking: false } }),
    );
    const id = started.body.task.id;
    const canceled = await json(await post(`/v1/tasks/${id}:cancel`));
    expect(canceled.body.status.state).toBe('TASK_STATE_CANCELLED');
    const again = await json(await post(`/v1/tasks/${id}:cancel`));
    expect([again.status, again.body.error, again.body.code]).toEqual([400, 'TaskNotCancelableError', -32002]);
    const missing = await json(await fetch(`${s.url}/v1/tasks/nope`));
    expect([missing.status, missing.body.error]).toEqual([404, 'TaskNotFoundError']);
    const malformed = await json(await post('/v1/message:send', '{oops'));
    expect([malformed.status, malformed.body.error]).toEqual([400, 'JSONParseError']);
    const noParts = await json(await post('/v1/message:send', { message: protoMessage('x', { content: [] }) }));
    expect([noParts.status, noParts.body.error]).toEqual([400, 'InvalidParamsError']);
    expect((await fetch(`${s.url}/v1/message:send`)).status).toBe(405);
    const wrongVersion = await post('/v1/message:send', { message: protoMessage('x') }, { 'a2a-version': '0.1' });
    expect(wrongVersion.status).toBe(400);
  });

  it('streams v0.3 proto StreamResponses and resubscribes to a live task', async () => {
    const response = await post('/v1/message:stream', { message: protoMessage('gated v03s') });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseReader(response);
    const first = JSON.parse((await events.next())?.data ?? '{}');
    expect(first.task.status.state).toBe('TASK_STATE_SUBMITTED');
    const id = first.task.id;
    expect(JSON.parse((await events.next())?.data ?? '{}').status_update.status.state).toBe('TASK_STATE_WORKING');

    const resubscribed = sseReader(await fetch(`${s.url}/v1/tasks/${id}:subscribe`));
    expect(JSON.parse((await resubscribed.next())?.data ?? '{}').task.id).toBe(id);
    fixture.release('v03s');
    const artifact = JSON.parse((await events.next())?.data ?? '{}').artifact_update;
    expect(artifact).toMatchObject({ task_id: id, artifact: { artifact_id: 'out', parts: [{ text: 'chunk 1' }] } });
    fixture.release('v03s-2');
    const rest = (await events.all()).map((e) => JSON.parse(e.data));
    expect(rest.at(-1).status_update).toMatchObject({ final: true, status: { state: 'TASK_STATE_COMPLETED' } });
    const live = (await resubscribed.all()).map((e) => JSON.parse(e.data));
    expect(live.at(-1).status_update.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('manages push configs in the v0.3 proto shape', async () => {
    const task = (await json(await post('/v1/message:send', { message: protoMessage('ask') }))).body.task;
    const config = { push_notification_config: { id: 'p1', url: 'https://hooks.example.com/a2a', token: 't' } };
    const created = await json(await post(`/v1/tasks/${task.id}/pushNotificationConfigs`, config));
    expect(created.body).toEqual({
      name: `tasks/${task.id}/pushNotificationConfigs/p1`,
      pushNotificationConfig: config.push_notification_config,
    });
    const got = await json(await fetch(`${s.url}/v1/tasks/${task.id}/pushNotificationConfigs/p1`));
    expect(got.body.pushNotificationConfig.url).toBe('https://hooks.example.com/a2a');
    const listed = await json(await fetch(`${s.url}/v1/tasks/${task.id}/pushNotificationConfigs`));
    expect(listed.body.configs).toHaveLength(1);
    // The CreateTaskPushNotificationConfigRequest wrapper with proto3 defaults ("" and {}) for unset fields.
    const wrapped = {
      parent: `tasks/${task.id}`,
      config_id: 'p2',
      config: { push_notification_config: { url: 'https://hooks.example.com/b', token: '', authentication: {} } },
    };
    const second = await json(await post(`/v1/tasks/${task.id}/pushNotificationConfigs`, wrapped));
    expect(second.body.pushNotificationConfig).toEqual({ id: 'p2', url: 'https://hooks.example.com/b' });
    // Over v0.3 JSON-RPC, a config set without an id is the task's `default` one.
    await s.rpc('tasks/pushNotificationConfig/set', {
      taskId: task.id,
      pushNotificationConfig: { url: 'https://hooks.example.com/c' },
    });
    const byDefault = await s.rpc('tasks/pushNotificationConfig/get', {
      id: task.id,
      pushNotificationConfigId: 'default',
    });
    expect(byDefault.body.result.pushNotificationConfig.url).toBe('https://hooks.example.com/c');
    for (const id of ['p2', 'default']) {
      await fetch(`${s.url}/v1/tasks/${task.id}/pushNotificationConfigs/${id}`, { method: 'DELETE' });
    }
    const deleted = await fetch(`${s.url}/v1/tasks/${task.id}/pushNotificationConfigs/p1`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await json(await fetch(`${s.url}/v1/tasks/${task.id}/pushNotificationConfigs`))).body.configs).toEqual([]);
  });

  it('serves the card at /v1/card and lists the v0.3 REST interface on the header-less card', async () => {
    const v03card = await json(await fetch(`${s.url}/v1/card`));
    expect(v03card.body).toMatchObject({ name: card.name, url: `${s.url}/`, protocolVersion: '0.3.0' });
    expect(v03card.body.additionalInterfaces).toContainEqual({ url: s.url, transport: 'HTTP+JSON' });
  });
});
