import { createA2AHandler } from '@a2a/core';
import { afterAll, expect, it } from 'vitest';
import { fromSdkV03Executor, sdkContext } from '../src/v03/index.js';
import { scribeCard } from './fixtures/sdk-agents.js';
import { ScribeV03Executor } from './fixtures/sdk-v03-agents.js';

// A 0.3.x executor on an adapter without a UserBuilder (`sdkContext()`, or no hook) sees the SDK's anonymous user,
// as on SDK 0.3.14's own server (`UserBuilder.noAuthentication` by default).
const { supportedInterfaces: _fromTheMount, ...card } = scribeCard('http://agent.test');
const hook = sdkContext();
const a2a = createA2AHandler({ agentCard: card, executor: fromSdkV03Executor(new ScribeV03Executor()) });
afterAll(() => a2a.close({ timeoutMs: 100 }));

it.each([
  ['no context hook', undefined],
  ['sdkContext() without a builder', hook],
])('%s: the executor sees UnauthenticatedUser', async (_name, context) => {
  const request = new Request('http://agent.test/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'whoami' }] } },
    }),
  });
  const response = await a2a.handle(request, context ? { context: await context(request) } : {});
  const { result } = await (response as Response).json();
  expect(result.task.status.message.parts).toEqual([{ text: 'UnauthenticatedUser:' }]);
});
