import { type Listening, listen } from '@a2a/adapter-testsuite';
import { A2AClient } from '@a2a/client';
import { type AgentContext, createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, type RedisTaskStoreSetup } from '../src/index.js';
import { clusterUrl } from './cluster.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

/** `stream N`: N artifact chunks 20 ms apart, then COMPLETED; `wait`: INPUT_REQUIRED; else an echo. */
async function execute(ctx: AgentContext): Promise<void> {
  const text = ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');
  await ctx.working();
  const steps = /^stream (\d+)$/.exec(text);
  if (steps) {
    for (let i = 0; i < Number(steps[1]); i++) {
      await ctx.artifact({ artifactId: 'out', text: `${i},`, append: i > 0 });
      await new Promise((r) => setTimeout(r, 20));
    }
    await ctx.complete('done');
  } else if (text === 'wait') await ctx.inputRequired('more?');
  else await ctx.complete(`echo: ${text}`);
}

/** Where the two instances meet: the test Redis, and a Redis Cluster (the Cluster mode) when there is one. */
const targets = [
  { name: 'Redis', available: hasRedis, open: testRedisUrl },
  {
    name: 'Redis Cluster',
    available: clusterUrl !== undefined,
    open: async () => ({ url: clusterUrl as string, release: async () => {} }),
  },
];

/** Two instances on one Redis, each behind core's node:http bridge, driven by @a2a/client. */
describe.each(targets)('round trips through @a2a/client over two instances on one $name', ({ available, open }) => {
  if (!available) return void it.skip('no server');
  let redis: Awaited<ReturnType<typeof testRedisUrl>>;
  const nodes: { server: Listening; setup: RedisTaskStoreSetup }[] = [];
  let a: A2AClient;
  let b: A2AClient;

  beforeAll(async () => {
    redis = await open();
    const prefix = freshPrefix('round');
    for (const name of ['a', 'b']) {
      const setup = await createRedisTaskStore({ url: redis.url, keyPrefix: prefix, instanceId: name });
      const a2a = createA2AHandler({
        agentCard: {
          name,
          description: 'round trip agent',
          version: '1.0.0',
          capabilities: { streaming: true, pushNotifications: true },
          skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
        },
        executor: { execute },
        taskStore: setup.taskStore,
        coordinator: setup.coordinator,
      });
      nodes.push({ server: await listen(createNodeHandler(a2a)), setup });
    }
    a = await A2AClient.connect(nodes[0]?.server.url as string);
    b = await A2AClient.connect(nodes[1]?.server.url as string);
  });
  afterAll(async () => {
    for (const node of nodes) {
      await node.server.close();
      await node.setup.close();
    }
    await redis?.release();
  });

  const message = (text: string, extra = {}) => ({
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER' as const,
    parts: [{ text }],
    ...extra,
  });

  it('send on A, read, list, continue and cancel on B; push configs across instances', async () => {
    const sent = await a.sendMessage({ message: message('wait') });
    if (!('task' in sent)) throw new Error('expected a task');
    const id = sent.task.id;
    expect(sent.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await b.getTask({ id })).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await b.listTasks({ contextId: sent.task.contextId })).tasks.map((t) => t.id)).toEqual([id]);
    const next = await b.sendMessage({ message: message('hello', { taskId: id }) });
    if (!('task' in next)) throw new Error('expected a task');
    expect(next.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await a.getTask({ id })).status.message?.parts[0]).toEqual({ text: 'echo: hello' });

    const other = await a.sendMessage({ message: message('wait') });
    if (!('task' in other)) throw new Error('expected a task');
    await b.createTaskPushNotificationConfig({ taskId: other.task.id, id: 'p1', url: 'https://hooks.example.com/a' });
    expect((await a.listTaskPushNotificationConfigs({ taskId: other.task.id })).configs?.map((c) => c.id)).toEqual([
      'p1',
    ]);
    expect((await b.cancelTask({ id: other.task.id })).status.state).toBe('TASK_STATE_CANCELED');
    expect((await a.getTask({ id: other.task.id })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('a stream started on A is followed on B, and resumed on A from its last event id without gap or repeat', async () => {
    const stream = a.sendStreamingMessage({ message: message('stream 20') });
    let id = '';
    for await (const event of stream) {
      if ('task' in event) id = event.task.id;
      if ('statusUpdate' in event && event.statusUpdate.status.state === 'TASK_STATE_WORKING') break;
    }
    const follow = b.subscribeToTask({ id });
    const ids: number[] = [];
    let text = '';
    for await (const event of follow) {
      ids.push(Number(follow.lastEventId));
      if ('task' in event) text = (event.task.artifacts?.[0]?.parts ?? []).map((p) => p.text ?? '').join('');
      if ('artifactUpdate' in event) text += event.artifactUpdate.artifact.parts.map((p) => p.text ?? '').join('');
      if (ids.length === 8) break;
    }
    const resumed = a.subscribeToTask({ id }, { lastEventId: String(ids.at(-1)) });
    let last = '';
    for await (const event of resumed) {
      ids.push(Number(resumed.lastEventId));
      if ('artifactUpdate' in event) text += event.artifactUpdate.artifact.parts.map((p) => p.text ?? '').join('');
      if ('statusUpdate' in event) last = event.statusUpdate.status.state;
    }
    expect(last).toBe('TASK_STATE_COMPLETED');
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => (ids[0] as number) + i));
    expect(text).toBe(Array.from({ length: 20 }, (_, i) => `${i},`).join(''));
  });
});
