import { createPushSender, isA2AError } from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ProtocolBinding } from '../src/index.js';
import { type Agent, card, startAgent, userMessage } from './agent.js';

let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

const caught = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

/** An agent with push notifications (webhooks to 127.0.0.1 allowed) and an extended card for signed-in callers. */
const fullAgent = () =>
  startAgent({
    agentCard: { ...card, capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true } },
    pushNotifications: createPushSender({ ssrf: { allow: ['127.0.0.1'] }, retry: { maxAttempts: 1 } }),
    extendedAgentCard: (user) => ({ ...card, name: `Client test agent for ${user.id}` }),
  });

describe.each<ProtocolBinding>(['JSONRPC', 'HTTP+JSON'])('the other operations over %s', (binding) => {
  it('creates, reads, lists and deletes push notification configs', async () => {
    agent = await fullAgent();
    const client = await A2AClient.connect(agent.url, { bindings: [binding] });
    const sent = await client.sendMessage({
      message: userMessage('gate:never'),
      configuration: { returnImmediately: true },
    });
    if (!('task' in sent)) throw new Error('expected a task');
    const taskId = sent.task.id;
    const created = await client.createTaskPushNotificationConfig({
      taskId,
      id: 'hook-1',
      url: 'http://127.0.0.1:9/hook',
      token: 'secret',
    });
    expect(created).toMatchObject({ taskId, id: 'hook-1', url: 'http://127.0.0.1:9/hook' });
    expect(await client.getTaskPushNotificationConfig({ taskId, id: 'hook-1' })).toMatchObject({ id: 'hook-1' });
    const listed = await client.listTaskPushNotificationConfigs({ taskId, pageSize: 10 });
    expect(listed.configs.map((c) => c.id)).toEqual(['hook-1']);
    await client.deleteTaskPushNotificationConfig({ taskId, id: 'hook-1' });
    const gone = await caught(client.getTaskPushNotificationConfig({ taskId, id: 'hook-1' }));
    expect(isA2AError(gone) && gone.type).toBe('TaskNotFound');
    await client.cancelTask({ id: taskId });
  });

  it('gets the extended card for a signed-in caller, Unauthenticated without one', async () => {
    agent = await fullAgent();
    const anonymous = await A2AClient.connect(agent.url, { bindings: [binding] });
    const refused = await caught(anonymous.getExtendedAgentCard());
    expect(isA2AError(refused) && refused.type).toBe('Unauthenticated');
    const signedIn = await A2AClient.connect(agent.url, {
      bindings: [binding],
      headers: { authorization: 'Bearer carol' },
    });
    const extended = await signedIn.getExtendedAgentCard();
    expect(extended.name).toBe('Client test agent for carol');
    expect(extended.supportedInterfaces.length).toBeGreaterThan(0);
  });

  it('continues an input-required task with a reply in the same task', async () => {
    agent = await startAgent();
    const client = await A2AClient.connect(agent.url, { bindings: [binding] });
    const asked = await client.sendMessage({ message: userMessage('ask') });
    if (!('task' in asked)) throw new Error('expected a task');
    expect(asked.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const events = [];
    for await (const event of client.sendStreamingMessage({
      message: userMessage('the red one', { taskId: asked.task.id, contextId: asked.task.contextId }),
    })) {
      events.push(event);
    }
    const last = events.at(-1);
    expect(last && 'statusUpdate' in last && last.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('refuses bad requests with the agent’s InvalidParams', async () => {
    agent = await startAgent();
    const client = await A2AClient.connect(agent.url, { bindings: [binding] });
    const error = await caught(
      client.sendMessage({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } }),
    );
    expect(isA2AError(error) && error.type).toBe('InvalidParams');
    expect(isA2AError(error) && error.message).toMatch(/role/);
  });
});
