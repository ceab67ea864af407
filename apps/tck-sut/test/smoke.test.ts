import { connect } from 'node:net';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, type RunningSut, startSut } from '../src/server.js';

// The behaviours the kits rely on, through each adapter the SUT can run on.
describe.each(ADAPTERS)('TCK SUT on %s', (adapter) => {
  let sut: RunningSut;
  beforeAll(async () => {
    sut = await startSut({ adapter, port: 0, v03WorkingMs: 50, delayedCompleteMs: 300 });
  });
  afterAll(() => sut.close());

  const rpc = async (method: string, params: unknown, headers: Record<string, string> = {}) =>
    (
      await fetch(`${sut.url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json();
  const message = (messageId: string) => ({ messageId, role: 'ROLE_USER', parts: [{ text: 'hi' }] });

  it("answers a Host it cannot read (`[::1`) the A2A way, not with a framework's empty 400", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'x' } });
    const { port } = new URL(sut.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.write(
        `POST / HTTP/1.1\r\nHost: [::1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    const json = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(raw).toMatch(/^HTTP\/1\.1 (200|400) /);
    expect(JSON.parse(json.replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''))).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600 },
    });
  });

  it('serves a card declaring what it really has, at the host root with 127.0.0.1 URLs', async () => {
    const card = await (
      await fetch(`${sut.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json();
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true, extendedAgentCard: true });
    expect(card.supportedInterfaces[0].url).toBe(`${sut.url}/`);
    const extended = await rpc('GetExtendedAgentCard', {});
    expect(extended.result.skills.map((s: { id: string }) => s.id)).toContain('tck-extended');
  });

  it('completes, answers with a message, or stays in INPUT_REQUIRED by messageId prefix', async () => {
    const done = await rpc('SendMessage', { message: message('tck-complete-task-1') });
    expect(done.result.task.status).toMatchObject({
      state: 'TASK_STATE_COMPLETED',
      message: { parts: [{ text: 'Hello from TCK' }] },
    });
    const direct = await rpc('SendMessage', { message: message('tck-message-response-1') });
    expect(direct.result.message.parts[0].text).toBe('Direct message response');
    const waiting = await rpc('SendMessage', { message: message('tck-input-required-1') });
    expect(waiting.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const file = await rpc('SendMessage', { message: message('tck-artifact-file-1') });
    expect(file.result.task.artifacts[0].parts[0]).toEqual({
      raw: 'dGNr',
      filename: 'output.txt',
      mediaType: 'text/plain',
    });
  });

  it('tck-auth-required: the task waits, open, in AUTH_REQUIRED (by messageId prefix or by text)', async () => {
    for (const msg of [
      message('tck-auth-required-1'),
      { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'tck-auth-required' }] },
    ]) {
      const sent = await rpc('SendMessage', { message: msg });
      expect(sent.result.task.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
      expect(sent.result.task.status.message.parts[0].text).toMatch(/auth/i);
      const later = await rpc('GetTask', { id: sent.result.task.id });
      expect(later.result.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    }
  });

  it('tck-delayed-complete: WORKING for a while, then COMPLETED "Done after delay"; blocking sends wait for it', async () => {
    const early = await rpc('SendMessage', {
      message: message('tck-delayed-complete-1'),
      configuration: { returnImmediately: true },
    });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(early.result.task.status.state);
    const get = async () => (await rpc('GetTask', { id: early.result.task.id })).result.status;
    await expect.poll(async () => (await get()).state, { timeout: 2000, interval: 20 }).toBe('TASK_STATE_WORKING');
    await expect.poll(async () => (await get()).state, { timeout: 5000 }).toBe('TASK_STATE_COMPLETED');
    expect((await get()).message.parts[0].text).toBe('Done after delay');

    const blocking = await rpc('SendMessage', {
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'tck-delayed-complete' }] },
    });
    expect(blocking.result.task.status).toMatchObject({
      state: 'TASK_STATE_COMPLETED',
      message: { parts: [{ text: 'Done after delay' }] },
    });
    const stored = (await rpc('GetTask', { id: blocking.result.task.id })).result;
    expect(stored.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('streams the chunked artifact over SSE, chunk by chunk', async () => {
    const response = await fetch(`${sut.url}/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: message('tck-stream-artifact-chunked-1') }),
    });
    const events: Record<string, any>[] = [];
    createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) }).feed(await response.text());
    expect(events.map((e) => Object.keys(e)[0])).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(events.filter((e) => e.artifactUpdate).map((e) => e.artifactUpdate.artifact.parts[0].text)).toEqual([
      'chunk-1 ',
      'chunk-2',
    ]);
    expect(events.at(-1)?.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('runs the generic agent for v0.3 clients: working, then input-required, on every turn', async () => {
    const v03 = (text: string, taskId?: string) =>
      rpc('message/send', {
        message: {
          kind: 'message',
          messageId: crypto.randomUUID(),
          role: 'user',
          parts: [{ kind: 'text', text }],
          ...(taskId && { taskId }),
        },
      });
    // A blocking send returns once execute() has returned: the task is WORKING, and asks for input a moment later.
    const first = await v03('Hello from TCK!');
    expect(first.result).toMatchObject({ kind: 'task', status: { state: 'working' } });
    const state = async () => (await rpc('tasks/get', { id: first.result.id })).result.status.state;
    await expect.poll(state, { timeout: 2000 }).toBe('input-required');
    const again = await v03('follow-up', first.result.id);
    expect(again.result.id).toBe(first.result.id);
    expect(again.result.history.filter((m: { role: string }) => m.role === 'user')).toHaveLength(2);
    await expect.poll(state, { timeout: 2000 }).toBe('input-required');
    expect((await rpc('tasks/cancel', { id: first.result.id })).result.status.state).toBe('canceled');
  });
});
