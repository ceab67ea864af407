import { createA2AHandler } from '@a2a/core';
import { afterAll, describe, expect, it } from 'vitest';
import { fromSdkExecutor } from '../src/index.js';
import { fromSdkV03Executor } from '../src/v03/index.js';
import { ScribeExecutor, scribeCard } from './fixtures/sdk-agents.js';
import { ScribeV03Executor } from './fixtures/sdk-v03-agents.js';

// Metadata as each SDK keeps it: the task's first event is the task as published (its metadata included); the 1.x
// SDK also folds status and artifact update metadata into the task's own, 0.3.x does not.

const { supportedInterfaces: _fromTheMount, ...card } = scribeCard('http://agent.test');

async function rpc(a2a: ReturnType<typeof createA2AHandler>, method: string, params: unknown) {
  const response = await a2a.fetch(
    new Request('http://agent.test/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }),
  );
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return [JSON.parse(text).result];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)).result);
}

const message = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
});

describe.each([
  ['1.x', () => fromSdkExecutor(new ScribeExecutor()), { origin: 'scribe', step: 1, chunk: 1, words: 11 }],
  ['0.3.x', () => fromSdkV03Executor(new ScribeV03Executor()), { origin: 'scribe' }],
] as const)('an SDK %s executor', (_generation, executor, taskMetadata) => {
  const a2a = createA2AHandler({ agentCard: card, executor: executor() });
  afterAll(() => a2a.close({ timeoutMs: 100 }));

  it("streams the task it published with its metadata; the task's metadata is the SDK's", async () => {
    const events = await rpc(a2a, 'SendStreamingMessage', message('stream this'));
    expect(events[0]?.task?.metadata).toEqual({ origin: 'scribe' });
    expect(events.at(-1)?.statusUpdate?.metadata).toEqual({ words: 11 });
    const [task] = await rpc(a2a, 'GetTask', { id: events[0].task.id });
    expect(task.metadata).toEqual(taskMetadata);
  });
});
