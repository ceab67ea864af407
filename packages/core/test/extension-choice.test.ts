import { describe, expect, it } from 'vitest';
import { type AgentContext, createA2AHandler } from '../src/index.js';
import { fetchClient } from './fetch-client.js';
import { card, startServer, userMessage } from './helpers.js';

// The executor changes the extensions a response lists in `A2A-Extensions` (ctx.activateExtension/declineExtension)
// until that response is built: after a blocking call's turn, when a stream's first event is sent.

const agentCard = {
  ...card,
  capabilities: { streaming: true, extensions: ['urn:a', 'urn:b', 'urn:c'].map((uri) => ({ uri })) },
};

/** The message's words: `decline=URI`, `activate=URI`; with `later:` in front, done after the first event. */
async function choose(ctx: AgentContext): Promise<void> {
  const words = (ctx.message.parts[0]?.text ?? '').split(' ').filter(Boolean);
  const apply = (word: string) => {
    const [op, uri = ''] = word.split('=');
    if (op === 'decline') ctx.declineExtension(uri);
    if (op === 'activate') ctx.activateExtension(uri);
  };
  for (const word of words.filter((w) => !w.startsWith('later:'))) apply(word);
  await ctx.working(JSON.stringify(ctx.extensions));
  await new Promise((resolve) => setTimeout(resolve, 10)); // the stream's first event is sent meanwhile
  for (const word of words.filter((w) => w.startsWith('later:'))) apply(word.slice('later:'.length));
  await ctx.complete();
}

describe('an executor choosing the extensions it activates', () => {
  const client = fetchClient(createA2AHandler({ agentCard, executor: { execute: choose } }));
  const send = (text: string, extensions?: string) =>
    client.rpc('SendMessage', { message: userMessage(text) }, extensions ? { 'A2A-Extensions': extensions } : {});

  it('declines a requested extension and activates a declared one; ctx.extensions stays as requested', async () => {
    const { headers, body } = await send('decline=urn:a activate=urn:c', 'urn:a, urn:b, urn:x');
    expect(headers.get('a2a-extensions')).toBe('urn:b, urn:c');
    expect(body.result.task.history[1].parts[0].text).toBe('["urn:a","urn:b"]');
  });

  it('activates with none requested; a URI the card does not declare is ignored', async () => {
    expect((await send('activate=urn:c activate=urn:x')).headers.get('a2a-extensions')).toBe('urn:c');
    expect((await send('activate=urn:x')).headers.has('a2a-extensions')).toBe(false);
  });

  it('declining every activated extension leaves the header out', async () => {
    expect((await send('decline=urn:a', 'urn:a')).headers.has('a2a-extensions')).toBe(false);
  });

  it('a blocking call takes changes made until its turn is over', async () => {
    expect((await send('later:decline=urn:a', 'urn:a, urn:b')).headers.get('a2a-extensions')).toBe('urn:b');
  });

  it('a stream takes changes made before its first event, not after', async () => {
    const early = await client.stream(
      'SendStreamingMessage',
      { message: userMessage('decline=urn:a') },
      {
        'A2A-Extensions': 'urn:a, urn:b',
      },
    );
    expect(early.headers.get('a2a-extensions')).toBe('urn:b');
    await early.rest();
    const late = await client.stream(
      'SendStreamingMessage',
      { message: userMessage('later:decline=urn:a') },
      {
        'A2A-Extensions': 'urn:a, urn:b',
      },
    );
    expect(late.headers.get('a2a-extensions')).toBe('urn:a, urn:b');
    await late.rest();
  });

  it('on REST and on the v0.3 wire (both headers) too', async () => {
    const rest = await client.rest(
      'POST',
      '/message:send',
      { message: userMessage('decline=urn:a') },
      {
        'A2A-Extensions': 'urn:a, urn:b',
      },
    );
    expect(rest.headers.get('a2a-extensions')).toBe('urn:b');
    const message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user' };
    const v03 = await client.rpc(
      'message/send',
      { message: { ...message, parts: [{ kind: 'text', text: 'decline=urn:a activate=urn:c' }] } },
      { 'X-A2A-Extensions': 'urn:a, urn:b' },
    );
    expect(v03.body.result.kind).toBe('task');
    expect([v03.headers.get('a2a-extensions'), v03.headers.get('x-a2a-extensions')]).toEqual([
      'urn:b, urn:c',
      'urn:b, urn:c',
    ]);
    const v03Stream = await client.stream(
      'message/stream',
      { message: { ...message, messageId: crypto.randomUUID(), parts: [{ kind: 'text', text: 'decline=urn:a' }] } },
      { 'X-A2A-Extensions': 'urn:a, urn:b' },
    );
    expect([v03Stream.headers.get('a2a-extensions'), v03Stream.headers.get('x-a2a-extensions')]).toEqual([
      'urn:b',
      'urn:b',
    ]);
    await v03Stream.rest();
  });

  it("through the Node bridge's prepared responses", async () => {
    const server = await startServer({ agentCard, executor: { execute: choose } });
    try {
      const { headers } = await server.rpc(
        'SendMessage',
        { message: userMessage('decline=urn:a activate=urn:c') },
        { 'A2A-Extensions': 'urn:a, urn:b' },
      );
      expect(headers.get('a2a-extensions')).toBe('urn:b, urn:c');
    } finally {
      await server.close();
    }
  });
});
