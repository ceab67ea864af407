import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureExecutor } from './agent-fixture.js';
import { card, startServer, type TestServer } from './helpers.js';

// Spec §3.1.1: a part whose media type the agent does not accept gets ContentTypeNotSupportedError (-32005 / 400).
const fixture = fixtureExecutor();
let s: TestServer;
let open: TestServer;
beforeAll(async () => {
  const modal = {
    ...card,
    defaultInputModes: ['text/plain', 'application/json'],
    skills: [{ id: 'look', name: 'Look', description: 'Looks at images', tags: ['images'], inputModes: ['image/*'] }],
  };
  s = await startServer({ agentCard: modal, executor: fixture.executor });
  open = await startServer({ agentCard: modal, executor: fixture.executor, acceptAnyInputMode: true });
});
afterAll(async () => {
  await s.close();
  await open.close();
});

const message = (...parts: Record<string, unknown>[]) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }, ...parts] },
});
const pdf = { raw: 'dGNr', mediaType: 'application/pdf' };

describe('input modes', () => {
  it.each([
    ['a text part without a media type (text/plain)', { text: 'plain' }],
    [
      'a declared media type with parameters, any case',
      { data: { a: 1 }, mediaType: 'Application/JSON; charset=utf-8' },
    ],
    ['a skill input mode (wildcard)', { url: 'https://example.com/a.png', mediaType: 'image/png' }],
    ['a data part without a media type', { data: [1, 2] }],
  ])('accepts %s', async (_name, part) => {
    const r = await s.rpc('SendMessage', message(part));
    expect(r.body.result?.task?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('refuses an undeclared media type with -32005 over JSON-RPC and 400 over REST, storing nothing', async () => {
    const before = (await s.rpc('ListTasks', {})).body.result.totalSize;
    const rpc = await s.rpc('SendMessage', message(pdf));
    expect(rpc.status).toBe(200);
    expect(rpc.body.error).toMatchObject({ code: -32005 });
    expect(rpc.body.error.message).toMatch(/incompatible content type.*application\/pdf.*not supported/i);
    expect(rpc.body.error.data[0]).toMatchObject({
      reason: 'CONTENT_TYPE_NOT_SUPPORTED',
      metadata: { mediaType: 'application/pdf', field: 'message.parts[1].mediaType' },
    });
    const rest = await s.rest('POST', '/message:send', message(pdf));
    expect(rest.status).toBe(400);
    expect(rest.body.error.details[0]).toMatchObject({ reason: 'CONTENT_TYPE_NOT_SUPPORTED' });
    const stream = await s.rest('POST', '/message:stream', message(pdf));
    expect(stream.status).toBe(400);
    // A text part that names a media type outside the modes is refused too.
    const markdown = await s.rpc('SendMessage', message({ text: '# hi', mediaType: 'text/markdown' }));
    expect(markdown.body.error.code).toBe(-32005);
    expect((await s.rpc('ListTasks', {})).body.result.totalSize).toBe(before);
  });

  it('checks the v0.3 wire too (file mimeType)', async () => {
    const r = await s.rpc('message/send', {
      message: {
        kind: 'message',
        messageId: crypto.randomUUID(),
        role: 'user',
        parts: [{ kind: 'file', file: { bytes: 'dGNr', mimeType: 'application/pdf' } }],
      },
    });
    expect(r.body.error.code).toBe(-32005);
  });

  it('acceptAnyInputMode lets every media type through', async () => {
    const r = await open.rpc('SendMessage', message(pdf));
    expect(r.body.result?.task?.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
