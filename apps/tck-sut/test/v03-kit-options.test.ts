import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSut, startSut } from '../src/server.js';

// The SUT as scripts/tck.sh starts it for the v0.3 kit (TCK_EXTENDED_CARD=auth): the extended card is declared but
// refused to callers without credentials, and v0.3 REST stream frames are bare kind-tagged objects.
describe('TCK SUT for the v0.3 kit', () => {
  let sut: RunningSut;
  beforeAll(async () => {
    sut = await startSut({ port: 0, v03WorkingMs: 50, extendedCard: 'authenticated' });
  });
  afterAll(() => sut.close());

  const extendedCard = (headers: Record<string, string> = {}) =>
    fetch(`${sut.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent/getAuthenticatedExtendedCard' }),
    });

  it('declares the extended card and serves it only to callers with credentials', async () => {
    const card = await (await fetch(`${sut.url}/.well-known/agent-card.json`)).json();
    expect(card.supportsAuthenticatedExtendedCard).toBe(true);
    expect((await extendedCard()).status).toBe(401);
    expect((await fetch(`${sut.url}/v1/card`)).status).toBe(401);
    const withCredentials = await (await extendedCard({ authorization: 'Bearer anything' })).json();
    expect(withCredentials.result.skills.map((s: { id: string }) => s.id)).toContain('tck-extended');
    // Everything else works without credentials.
    const sent = await fetch(`${sut.url}/v1/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: { message_id: 'm-1', role: 'ROLE_USER', content: [{ text: 'Hello' }] } }),
    });
    expect(sent.status).toBe(200);
  });

  it('streams v0.3 REST frames as bare kind-tagged objects', async () => {
    const response = await fetch(`${sut.url}/v1/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: { message_id: 'm-2', role: 'ROLE_USER', content: [{ text: 'Hello' }] } }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const frames: Record<string, unknown>[] = [];
    const parser = createParser({ onEvent: (e) => frames.push(JSON.parse(e.data)) });
    const decoder = new TextDecoder();
    while (frames.length === 0) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    await reader.cancel();
    expect(frames[0]).toMatchObject({ kind: 'task', id: expect.any(String), status: { state: 'submitted' } });
  });
});
