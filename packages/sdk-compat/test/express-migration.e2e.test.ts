import { createServer, type Server } from 'node:http';
import { TaskState } from '@a2a-js/sdk';
import { InMemoryTaskStore } from '@a2a-js/sdk/server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '../src/express.js';
import { DefaultRequestHandler } from '../src/index.js';
import { EXTENSION_URI, ScribeExecutor, scribeCard } from './fixtures/sdk-agents.js';
import { close, listen, sdkClient, send } from './helpers.js';

// An SDK 1.x Express server moved by changing two import specifiers, driven by the SDK's own client.
describe('an @a2a-js/sdk Express server on the look-alikes', () => {
  let server: Server;
  let origin: string;
  let handler: DefaultRequestHandler;

  beforeAll(async () => {
    const app = express();
    server = createServer(app);
    origin = await listen(server);
    handler = new DefaultRequestHandler(scribeCard(origin) as never, new InMemoryTaskStore(), new ScribeExecutor());
    app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
    app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
    app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  });
  afterAll(async () => {
    await handler.close({ timeoutMs: 100 });
    await close(server);
  });

  it('echoes a requested extension in A2A-Extensions only when the executor activates it, as the SDK does', async () => {
    const call = (text: string) =>
      fetch(`${origin}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-extensions': EXTENSION_URI },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
        }),
      });
    const activated = await call('note with tone');
    expect(activated.headers.get('a2a-extensions')).toBe(EXTENSION_URI);
    await activated.text();
    const declined = await call('reply without tone'); // the executor answers before activating anything
    expect(declined.headers.get('a2a-extensions')).toBeNull();
    await declined.text();
  });

  for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
    it(`${transport}: send, stream, get, list, cancel`, async () => {
      const client = await sdkClient(origin, transport);
      const done = await client.sendMessage(send('note please'));
      if (!('status' in done)) throw new Error(`expected a task: ${JSON.stringify(done)}`);
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      // As the SDK's own server: the update events' metadata is folded into the task's.
      expect(done.metadata).toEqual({ origin: 'scribe', step: 1, chunk: 1, words: 'note please'.length });
      const note = done.artifacts.find((a) => a.artifactId === 'note');
      expect(note?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('')).toBe(
        'Dear reader, hello.',
      );

      const reply = await client.sendMessage(send('reply hi'));
      expect('parts' in reply && reply.parts[0]?.content).toEqual({ $case: 'text', value: 'You said: reply hi' });

      const events = [];
      for await (const event of client.sendMessageStream(send('stream this'))) events.push(event);
      const cases = events.map((e) => e.payload?.$case);
      expect(cases).toContain('artifactUpdate');
      const last = events.at(-1)?.payload;
      expect(last?.$case === 'statusUpdate' && last.value.metadata).toEqual({ words: 'stream this'.length });

      const got = await client.getTask({ tenant: '', id: done.id, historyLength: undefined });
      expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      const whoami = await client.sendMessage(send('whoami'));
      if (!('status' in whoami)) throw new Error('expected a task');
      const said = whoami.status?.message?.parts[0]?.content;
      expect(said).toEqual({ $case: 'text', value: 'UnauthenticatedUser:' });

      const waiting = client.sendMessageStream(send('wait for me'));
      let taskId = '';
      for await (const event of waiting) {
        if (
          event.payload?.$case === 'statusUpdate' &&
          event.payload.value.status?.state === TaskState.TASK_STATE_WORKING
        ) {
          taskId = event.payload.value.taskId;
          const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
          expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
          const message = canceled.status?.message?.parts[0]?.content;
          expect(message).toEqual({ $case: 'text', value: 'Stopped at your request' });
        }
      }
      expect(taskId).not.toBe('');
    });
  }
});
