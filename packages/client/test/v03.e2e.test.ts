import { createPushSender, isA2AError } from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient } from '../src/index.js';
import { v03 } from '../src/v03.js';
import { type Agent, card, startAgent, stateOf, userMessage } from './agent.js';

let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

describe('the client speaking A2A 0.3 JSON-RPC (@a2a/client/v03) to our server', () => {
  it('uses the card’s 0.3 interface and sends A2A-Version: 0.3; results are v1.0 objects', async () => {
    agent = await startAgent();
    const client = await A2AClient.connect(agent.url, { protocol: v03 });
    expect(client.interface.protocolVersion).toBe('0.3');
    const sent = await client.sendMessage({ message: userMessage('chunks:2') });
    if (!('task' in sent)) throw new Error('expected a task');
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(agent.requests.at(-1)?.['a2a-version']).toBe('0.3');
    const task = await client.getTask({ id: sent.task.id });
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'chunk 0' }, { text: 'chunk 1' }]);
    const reply = await client.sendMessage({ message: userMessage('hello') });
    expect('message' in reply && reply.message.parts).toEqual([{ text: 'hello to you' }]);
    const missing = await client.getTask({ id: 'nope' }).catch((e: unknown) => e);
    expect(isA2AError(missing) && missing.type).toBe('TaskNotFound');
    const list = await client.listTasks().catch((e: unknown) => e);
    expect(isA2AError(list) && list.type).toBe('UnsupportedOperation');
  });

  it('streams, resubscribes and cancels', async () => {
    agent = await startAgent();
    const client = await A2AClient.connect(agent.url, { protocol: v03 });
    const seen: string[] = [];
    for await (const event of client.sendStreamingMessage({ message: userMessage('chunks:2') }))
      seen.push(stateOf(event));
    expect(seen).toEqual([
      'task TASK_STATE_SUBMITTED',
      'status TASK_STATE_WORKING',
      'artifact chunk 0',
      'artifact chunk 1',
      'status TASK_STATE_COMPLETED',
    ]);
    const sent = await client.sendMessage({
      message: userMessage('gate:never'),
      configuration: { returnImmediately: true },
    });
    if (!('task' in sent)) throw new Error('expected a task');
    const events: string[] = [];
    for await (const event of client.subscribeToTask({ id: sent.task.id })) {
      events.push(stateOf(event));
      if (events.length === 1) await client.cancelTask({ id: sent.task.id });
    }
    expect(events).toEqual(['task TASK_STATE_WORKING', 'status TASK_STATE_CANCELED']);
  });

  it('push notification configs through the v0.3 methods', async () => {
    agent = await startAgent({
      agentCard: { ...card, capabilities: { streaming: true, pushNotifications: true } },
      pushNotifications: createPushSender({ ssrf: { allow: ['127.0.0.1'] }, retry: { maxAttempts: 1 } }),
    });
    const client = await A2AClient.connect(agent.url, { protocol: v03 });
    const sent = await client.sendMessage({
      message: userMessage('gate:never'),
      configuration: { returnImmediately: true },
    });
    if (!('task' in sent)) throw new Error('expected a task');
    const taskId = sent.task.id;
    const created = await client.createTaskPushNotificationConfig({ taskId, id: 'h1', url: 'http://127.0.0.1:9/h' });
    expect(created).toMatchObject({ taskId, id: 'h1', url: 'http://127.0.0.1:9/h' });
    expect(await client.getTaskPushNotificationConfig({ taskId, id: 'h1' })).toMatchObject({ id: 'h1' });
    expect((await client.listTaskPushNotificationConfigs({ taskId })).configs.map((c) => c.id)).toEqual(['h1']);
    await client.deleteTaskPushNotificationConfig({ taskId, id: 'h1' });
    expect((await client.listTaskPushNotificationConfigs({ taskId })).configs).toEqual([]);
    await client.cancelTask({ id: taskId });
  });

  it('reads a plain v0.3 card (url + preferredTransport) and refuses HTTP+JSON for 0.3', async () => {
    agent = await startAgent();
    const url = agent.url;
    const v03Card = {
      name: 'Old agent',
      description: 'Speaks 0.3',
      version: '1.0.0',
      protocolVersion: '0.3.0',
      url: `${url}/`,
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 'S', description: 'S', tags: ['t'] }],
    };
    const client = new A2AClient(v03Card as never, { protocol: v03 });
    expect(client.interface).toMatchObject({ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' });
    const sent = await client.sendMessage({ message: userMessage('chunks:1') });
    expect('task' in sent && sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const rest = await A2AClient.connect(url, { protocol: v03, bindings: ['HTTP+JSON'] }).catch((e: unknown) => e);
    expect(isA2AError(rest) && rest.message).toMatch(/not spoken over HTTP\+JSON/);
  });
});
