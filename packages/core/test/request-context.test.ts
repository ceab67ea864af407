import { describe, expect, it } from 'vitest';
import { type AgentContext, createA2AHandler } from '../src/index.js';
import { fetchClient } from './fetch-client.js';
import { card, userMessage } from './helpers.js';

// What the executor learns of the request beyond the message: its `configuration` as received, and the host's
// per-request `state` (from createA2AHandler's `context` hook, or the context an adapter hands to `handle`).

const agentCard = { ...card, capabilities: { streaming: true } };
const seen = (ctx: AgentContext) => ctx.reply(JSON.stringify({ configuration: ctx.configuration, state: ctx.state }));

describe('the request on the context', () => {
  const a2a = createA2AHandler({
    agentCard,
    executor: { execute: seen },
    context: (request) => ({ state: { trace: request.headers.get('x-trace'), from: 'hook' } }),
  });
  const client = fetchClient(a2a);
  const answer = async (...args: Parameters<typeof client.rpc>) => {
    const { body } = await client.rpc(...args);
    return JSON.parse(body.result.message.parts[0].text);
  };

  it('ctx.configuration is the request configuration; ctx.state is the hook state', async () => {
    const configuration = { acceptedOutputModes: ['text/plain'], historyLength: 2 };
    const got = await answer('SendMessage', { message: userMessage('hi'), configuration }, { 'x-trace': 't-1' });
    expect(got).toEqual({ configuration, state: { trace: 't-1', from: 'hook' } });
  });

  it('both are undefined when the request has none and no hook gives state', async () => {
    const plain = createA2AHandler({ agentCard, executor: { execute: seen } });
    const { body } = await fetchClient(plain).rpc('SendMessage', { message: userMessage('hi') });
    expect(JSON.parse(body.result.message.parts[0].text)).toEqual({});
  });

  it("the state handed to handle() wins over the hook's", async () => {
    const context = { state: { from: 'adapter' } };
    expect(await answer('SendMessage', { message: userMessage('hi') }, {}, { context })).toEqual({
      state: { from: 'adapter' },
    });
  });

  it('reaches the executor on REST and on streams too', async () => {
    const { body } = await client.rest('POST', '/message:send', { message: userMessage('hi') }, { 'x-trace': 't-2' });
    expect(JSON.parse(body.message.parts[0].text).state).toEqual({ trace: 't-2', from: 'hook' });
    const stream = await client.stream(
      'SendStreamingMessage',
      { message: userMessage('hi'), configuration: { returnImmediately: false } },
      { 'x-trace': 't-3' },
    );
    expect(JSON.parse((await stream.next()).message.parts[0].text)).toEqual({
      configuration: { returnImmediately: false },
      state: { trace: 't-3', from: 'hook' },
    });
  });
});
