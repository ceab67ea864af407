import { type Listening, listen } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { eventually } from '@a2a/store-testsuite/cluster';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore } from '../src/index.js';
import { freshPrefix, hasServerBinary, type RedisServer, startRedisServer } from './redis.js';

/**
 * A Redis Cluster that cannot serve for a while, on a lone node of this file's own (all slots): every request is
 * answered 503 Unavailable within its bound, never a 500 or a hang, and once the cluster serves again so is the next
 * request. Two ways down: a slot unserved (cluster_state:fail: every command refused with CLUSTERDOWN, which ioredis
 * retries and then hands back) and the node unreachable (ioredis would hold each command until a node is back:
 * cluster-client.ts).
 */
describe.runIf(hasServerBinary)('a Redis Cluster that cannot serve for a while', () => {
  let node: RedisServer;
  let admin: Redis | undefined;
  const closers: (() => Promise<void>)[] = [];
  const clusterState = async () => /cluster_state:(\w+)/.exec(await (admin as Redis).cluster('INFO'))?.[1];
  const untilState = (state: string) => eventually(async () => (await clusterState()) === state, 15_000);
  beforeAll(async () => {
    node = await startRedisServer({ cluster: true, appendfsync: 'always' }); // what it acknowledged survives its kill
    admin = new Redis(node.url, { maxRetriesPerRequest: 0 });
    await admin.cluster('ADDSLOTSRANGE', 0, 16383);
    await untilState('ok');
  }, 30_000);
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    admin?.disconnect();
    await node?.destroy();
  });

  /** An engine on a store on the node, and SendMessage / GetTask through it (bounded: a hang fails the test). */
  async function agent() {
    const setup = await createRedisTaskStore({ url: node.url, keyPrefix: freshPrefix('cdown'), onError: () => {} });
    closers.push(() => setup.close());
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
    const server: Listening = await listen(createNodeHandler(a2a));
    closers.push(() => server.close());
    const signal = () => AbortSignal.timeout(20_000);
    return {
      send: async () => {
        const response = await fetch(`${server.url}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
          }),
          signal: signal(),
        });
        return { status: response.status, body: await response.json() };
      },
      get: async (id: string) => (await fetch(`${server.url}/tasks/${id}`, { signal: signal() })).status,
    };
  }

  /** What every request gets while the cluster is down, and once it is back. */
  async function throughOutage(down: () => Promise<void>, up: () => Promise<void>) {
    const { send, get } = await agent();
    const before = await send();
    expect(before.status).toBe(200);
    const id = before.body.task.id;
    await down();
    const refused = await send();
    expect(refused.status).toBe(503);
    expect(refused.body.error.status).toBe('UNAVAILABLE');
    expect(await get(id)).toBe(503);
    await up();
    // ioredis reconnects on its own schedule: the client's retry of a 503.
    const after = await eventually(async () => {
      const answer = await send();
      return answer.status === 200 ? answer : undefined;
    }, 15_000);
    expect(after?.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await get(id)).toBe(200);
  }

  it('a slot unserved (CLUSTERDOWN for every command): 503, then served again', async () => {
    await throughOutage(
      async () => {
        await (admin as Redis).cluster('DELSLOTS', 16383);
        await untilState('fail');
      },
      async () => {
        await (admin as Redis).cluster('ADDSLOTS', 16383);
        await untilState('ok');
      },
    );
  }, 60_000);

  it('every node unreachable: 503 at once instead of a request held until a node is back, then served again', async () => {
    await throughOutage(
      async () => {
        admin?.disconnect();
        await node.stop('SIGKILL');
      },
      async () => {
        await node.start(); // its nodes file keeps the slots
        admin = new Redis(node.url, { maxRetriesPerRequest: 0 });
        await untilState('ok');
      },
    );
  }, 60_000);
});
