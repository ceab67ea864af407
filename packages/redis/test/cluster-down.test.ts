import { listen } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore } from '../src/index.js';
import { freshPrefix, hasServerBinary, type RedisServer, startRedisServer } from './redis.js';

/**
 * A cluster that cannot serve for longer than ioredis retries CLUSTERDOWN (16 redirections 100 ms apart): ioredis then
 * gives up with "Too many Cluster redirections. Last error: … CLUSTERDOWN …", as CI met while a killed master's
 * replica was still being elected. The command did not run; a request is answered 503 Unavailable, never 500, and
 * once the cluster serves again so is the next request. A lone node of this test's own (all slots, then none).
 */
describe.runIf(hasServerBinary)('a Redis Cluster that cannot serve for a while', () => {
  let node: RedisServer;
  let admin: Redis;
  const clusterState = async () => /cluster_state:(\w+)/.exec(await admin.cluster('INFO'))?.[1];
  const until = async (state: string) => {
    for (let i = 0; i < 200 && (await clusterState()) !== state; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await clusterState()).toBe(state);
  };
  beforeAll(async () => {
    node = await startRedisServer({ cluster: true });
    admin = new Redis(node.url, { maxRetriesPerRequest: 0 });
    await admin.cluster('ADDSLOTSRANGE', 0, 16383);
    await until('ok');
  }, 30_000);
  afterAll(async () => {
    admin?.disconnect();
    await node?.destroy();
  });

  it('answers 503 Unavailable while it is down, and serves again when it is back', async () => {
    const setup = await createRedisTaskStore({ url: node.url, keyPrefix: freshPrefix('cdown'), onError: () => {} });
    expect(setup.redis.cluster).toBe(true);
    const a2a = createA2AHandler({
      agentCard: {
        name: 'cluster down',
        description: 'a cluster that cannot serve',
        version: '1.0.0',
        capabilities: {},
        skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      },
      executor: { execute: (ctx) => ctx.complete('done') },
      taskStore: setup.taskStore,
      coordinator: setup.coordinator,
      onError: () => {},
    });
    const server = await listen(createNodeHandler(a2a));
    const send = async () => {
      const response = await fetch(`${server.url}/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
        }),
        signal: AbortSignal.timeout(20_000),
      });
      return { status: response.status, body: await response.json() };
    };
    try {
      const before = await send();
      expect(before.status).toBe(200);
      const id = before.body.task.id;

      await admin.cluster('DELSLOTS', 16383); // one slot unserved: the cluster refuses every command
      await until('fail');
      const down = await send();
      expect(down.status).toBe(503);
      expect(down.body.error.status).toBe('UNAVAILABLE');
      const read = await fetch(`${server.url}/tasks/${id}`, { signal: AbortSignal.timeout(20_000) });
      expect(read.status).toBe(503);

      await admin.cluster('ADDSLOTS', 16383);
      await until('ok');
      const after = await send();
      expect(after.status).toBe(200);
      expect(after.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      await server.close();
      await setup.close();
    }
  }, 60_000);
});
