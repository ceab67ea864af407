import { type Listening, listen } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { a2aExpress } from '../src/index.js';

// Mounted at the root, the adapter must leave requests it does not own untouched, body included.
let server: Listening;
let base = '';
beforeAll(async () => {
  const a2a = createA2AHandler({
    agentCard: {
      name: 'A',
      description: 'd',
      version: '1',
      skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
    },
    executor: { execute: (ctx) => ctx.complete('ok') },
  });
  const app = express();
  app.use(a2aExpress(a2a));
  app.post('/orders', express.json({ limit: '1mb' }), (req, res) => void res.json({ got: req.body }));
  server = await listen(app);
  base = server.url;
});
afterAll(() => server.close());

it("passes a POST it does not own to the app's own route with its body unread", async () => {
  const r = await fetch(`${base}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ item: 'tea', qty: 2 }),
  });
  expect(await r.json()).toEqual({ got: { item: 'tea', qty: 2 } });
  // And A2A on the same connection pool still works.
  const rpc = await fetch(`${base}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } },
    }),
  });
  expect((await rpc.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
});

it('leaves a large body (past the bridge buffering limit) unread for the route it falls through to', async () => {
  const item = 'x'.repeat(600 * 1024);
  const r = await fetch(`${base}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ item }),
  });
  expect(r.status).toBe(200);
  expect(((await r.json()) as { got: { item: string } }).got.item.length).toBe(item.length);
});

// A handler that answers `undefined` in front (the playground before the agent, as the demos mount it) must not eat
// the body: 4 MiB went unanswered forever behind express.json(), and a 600 kB one reached the agent cut short (-32700).
it('a large body passes a handler that does not own the path, to a parser and an agent behind it', async () => {
  const app = express();
  app.use(a2aExpress({ handle: async () => undefined }));
  app.use(express.json({ limit: '1mb' }));
  app.use(
    a2aExpress(
      createA2AHandler({
        agentCard: {
          name: 'B',
          description: 'd',
          version: '1',
          skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
        },
        executor: { execute: (ctx) => ctx.complete('ok') },
      }),
    ),
  );
  const behind = await listen(app);
  try {
    const send = (text: string) =>
      fetch(`${behind.url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text }] } },
        }),
        signal: AbortSignal.timeout(15_000),
      });
    const large = await send('x'.repeat(600 * 1024));
    expect((await large.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const tooLarge = await send('x'.repeat(4 * 1024 * 1024));
    expect(tooLarge.status).toBe(413);
  } finally {
    await behind.close();
  }
});
