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
  app.post('/orders', express.json(), (req, res) => void res.json({ got: req.body }));
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
