// `@a2a-js/sdk` agents declare `defaultInputModes: ['text']` (the pre-1.0 mode name, not a media type): it means
// text/plain, so their text messages are accepted and other media types are still refused.
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../src/index.js';
import { userMessage } from './helpers.js';

const a2a = createA2AHandler({
  agentCard: {
    name: 'SDK agent',
    description: 'Declares text',
    version: '1.0.0',
    capabilities: {},
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['echo'] }],
  },
  executor: { execute: (ctx) => ctx.complete('done') },
  onError: () => {},
});

const send = async (...parts: Record<string, unknown>[]) => {
  const answer = await a2a.fetch(
    new Request('http://agent.test/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: userMessage('hi', { parts }) },
      }),
    }),
  );
  return (await answer.json()) as {
    result?: { task?: { status: { state: string } } };
    error?: { code: number; data: { metadata: Record<string, string> }[] };
  };
};

describe("a card's 'text' input mode", () => {
  it('accepts text parts, with or without a text/plain media type', async () => {
    for (const part of [
      { text: 'a' },
      { text: 'b', mediaType: 'text/plain; charset=utf-8' },
      { text: 'c', mediaType: 'text' },
    ]) {
      expect((await send(part)).result?.task?.status.state, JSON.stringify(part)).toBe('TASK_STATE_COMPLETED');
    }
  });

  it('is served as declared and still refuses other media types, naming text/plain as accepted', async () => {
    const card = await a2a.fetch(new Request('http://agent.test/.well-known/agent-card.json'));
    expect(await card.json()).toMatchObject({ defaultInputModes: ['text'] });
    const refused = await send({ text: '# hi', mediaType: 'text/markdown' });
    expect(refused.error?.code).toBe(-32005);
    expect(refused.error?.data[0]?.metadata.accepted).toBe('text/plain');
  });
});
