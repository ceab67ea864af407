import { isA2AError } from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ProtocolBinding } from '../src/index.js';
import { stateOf, userMessage } from './agent.js';
import { startSdkAgent } from './sdk-agent.js';

let sdk: Awaited<ReturnType<typeof startSdkAgent>> | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

describe.each<ProtocolBinding>(['JSONRPC', 'HTTP+JSON'])(
  'the client against the official SDK server over %s',
  (binding) => {
    const connect = async () => {
      sdk = await startSdkAgent();
      return A2AClient.connect(sdk.url, { bindings: [binding] });
    };

    it('resolves the card, sends, streams and reads tasks', async () => {
      const client = await connect();
      expect(client.card.name).toBe('SDK agent');
      expect(client.interface.url).toBe(`${sdk?.url}${binding === 'JSONRPC' ? '/rpc' : '/rest'}`);
      const reply = await client.sendMessage({ message: userMessage('hello') });
      expect('message' in reply && reply.message.parts).toEqual([{ text: 'hello to you', mediaType: 'text/plain' }]);
      const seen: string[] = [];
      const stream = client.sendStreamingMessage({ message: userMessage('go') });
      for await (const event of stream) seen.push(stateOf(event));
      expect(seen).toEqual([
        'task TASK_STATE_SUBMITTED',
        'status TASK_STATE_WORKING',
        'artifact chunk 0',
        'artifact chunk 1',
        'status TASK_STATE_COMPLETED',
      ]);
      const task = await client.getTask({ id: stream.taskId ?? '' });
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      const listed = await client.listTasks({});
      expect(listed.tasks.map((t) => t.id)).toContain(task.id);
    });

    it('cancels a running task and maps the SDK’s errors to A2AError types', async () => {
      const client = await connect();
      const sent = await client.sendMessage({
        message: userMessage('wait'),
        configuration: { returnImmediately: true },
      });
      if (!('task' in sent)) throw new Error('expected a task');
      const canceled = await client.cancelTask({ id: sent.task.id });
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
      const missing = await client.getTask({ id: 'no-such-task' }).catch((e: unknown) => e);
      expect(isA2AError(missing) && missing.type).toBe('TaskNotFound');
    });
  },
);
