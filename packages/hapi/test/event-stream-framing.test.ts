import { FIXTURE_CARD, RawConnection } from '@a2a/adapter-testsuite';
import { type AgentExecutor, createA2AHandler, InMemoryTaskStore } from '@a2a/core';
import Hapi from '@hapi/hapi';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { a2aHapi } from '../src/index.js';

// A stream the agent has finished by the end of its burst leaves as one body with a Content-Length; one that goes on
// still streams, chunked (docs/performance.md, "Koa and Hapi streams").
const executor: AgentExecutor = {
  async execute(ctx) {
    await ctx.submit();
    await ctx.working();
    await ctx.artifact({ artifactId: 'a', name: 'a', text: 'one' });
    if (ctx.message.parts[0]?.text === 'slow') await new Promise((resolve) => setTimeout(resolve, 30));
    return ctx.complete();
  },
};
let server: Hapi.Server;
beforeAll(async () => {
  server = Hapi.server({ port: 0, host: '127.0.0.1' });
  const handler = createA2AHandler({ agentCard: FIXTURE_CARD, executor, taskStore: new InMemoryTaskStore() });
  await server.register({ plugin: a2aHapi, options: { handler } });
  await server.start();
});
afterAll(() => server.stop({ timeout: 100 }));

/** A SendStreamingMessage on a raw connection: the status, the headers as sent and the body. */
async function stream(text: string) {
  const connection = await RawConnection.open('127.0.0.1', Number(server.info.port));
  try {
    return await connection.send(
      {
        method: 'POST',
        path: '/',
        headers: [
          ['content-type', 'application/json'],
          ['accept', 'text/event-stream'],
          ['a2a-version', '1.0'],
        ],
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'SendStreamingMessage',
          params: { message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] } },
        }),
      },
      5000,
    );
  } finally {
    connection.close();
  }
}

const events = (body: string) => body.split('\n\n').filter(Boolean);

it('writes a stream finished within its burst as one body with a Content-Length', async () => {
  const r = await stream('fast');
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(r.headers['transfer-encoding']).toBeUndefined();
  expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
  const frames = events(r.body);
  expect(frames.map((f) => f.split('\n')[0])).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4']);
  expect(frames.at(-1)).toContain('"TASK_STATE_COMPLETED"');
});

it('still streams, chunked, an answer whose agent goes on', async () => {
  const r = await stream('slow');
  expect(r.status).toBe(200);
  expect(r.headers['transfer-encoding']).toBe('chunked');
  expect(r.headers['content-length']).toBeUndefined();
  const frames = events(r.body);
  expect(frames.map((f) => f.split('\n')[0])).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4']);
  expect(frames.at(-1)).toContain('"TASK_STATE_COMPLETED"');
});
