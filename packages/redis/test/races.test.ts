import { type Listening, listen } from '@a2a/adapter-testsuite';
import { type AgentContext, createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { message, rest, rpc } from '@a2a/store-testsuite/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, type RedisTaskStoreSetup } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

/** `chat N`: N WORKING updates, then INPUT_REQUIRED (the turn ends; the client may continue the task). */
async function execute(ctx: AgentContext): Promise<void> {
  const text = ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');
  const steps = Number(/^chat (\d+)$/.exec(text)?.[1] ?? 0);
  for (let i = 0; i < steps; i++) await ctx.working(`step ${i}`);
  if (text.startsWith('echo ')) await ctx.complete(text);
  else await ctx.inputRequired('more?');
}

interface Node {
  url: string;
  server: Listening;
  setup: RedisTaskStoreSetup;
  errors: unknown[];
}

/** One instance: its own connections, stream tail and lease coordinator, behind its own HTTP server. */
async function startNode(url: string, keyPrefix: string, name: string): Promise<Node> {
  const setup = await createRedisTaskStore({ url, keyPrefix, instanceId: name });
  const errors: unknown[] = [];
  const a2a = createA2AHandler({
    agentCard: {
      name,
      description: 'race test agent',
      version: '1.0.0',
      capabilities: { streaming: true },
      skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
    },
    executor: { execute },
    taskStore: setup.taskStore,
    coordinator: setup.coordinator,
    onError: (error) => errors.push(error),
  });
  const server = await listen(createNodeHandler(a2a));
  return { url: server.url, server, setup, errors };
}

describe.runIf(hasRedis)('two instances on one Redis: races and read-back', () => {
  let redis: Awaited<ReturnType<typeof testRedisUrl>>;
  let a: Node;
  let b: Node;

  beforeAll(async () => {
    redis = await testRedisUrl();
    const prefix = freshPrefix('races');
    a = await startNode(redis.url, prefix, 'a');
    b = await startNode(redis.url, prefix, 'b');
  });
  afterAll(async () => {
    for (const node of [a, b]) {
      await node?.server.close();
      await node?.setup.close();
    }
    await redis?.release();
  });

  const continueTask = (on: Node, taskId: string, text: string) =>
    rpc(on.url, 'SendMessage', { message: { ...message(text), taskId } });
  /** The states the task's status events set, in log order; `history` for a client's message. */
  const states = async (taskId: string) =>
    (await a.setup.redis.readEvents(taskId, 0)).map((r) => (r.event.kind === 'status' ? r.state : r.event.kind));

  it('20 concurrent follow-ups on one task from both instances: every request succeeds, nothing lost or reordered', async () => {
    const created = await rpc(a.url, 'SendMessage', { message: message('chat 1') });
    const taskId = created.body.result.task.id as string;
    expect(created.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => continueTask(i % 2 ? b : a, taskId, `chat ${1 + (i % 5)}`)),
    );
    for (const reply of replies) {
      expect(reply.body.error).toBeUndefined();
      expect(reply.body.result.task.status.state).not.toBe('TASK_STATE_FAILED');
    }
    const final = await rpc(b.url, 'GetTask', { id: taskId, historyLength: 100 });
    expect(final.body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const log = await states(taskId);
    expect(log).not.toContain('TASK_STATE_FAILED');
    // 20 client messages, 1 + 4 * (1+2+3+4+5) WORKING updates, 1 + 20 INPUT_REQUIRED: nothing lost.
    expect(log.filter((s) => s === 'history').length).toBe(20);
    expect(log.filter((s) => s === 'TASK_STATE_INPUT_REQUIRED').length).toBe(21);
    expect(log.filter((s) => s === 'TASK_STATE_WORKING').length).toBe(1 + 4 * 15);
    // The log is gap-free and in order, and the stored task is its fold (every message in history, in log order).
    const records = await a.setup.redis.readEvents(taskId, 0);
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: records.length }, (_, i) => i + 2));
    const historyIds = (final.body.result.history as { messageId: string; role: string }[])
      .filter((m) => m.role === 'ROLE_USER')
      .map((m) => m.messageId);
    const loggedIds = records.flatMap((r) =>
      r.event.kind === 'history' ? [(r.event as { message: { messageId: string } }).message.messageId] : [],
    );
    expect(historyIds.slice(-20)).toEqual(loggedIds);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('200 tasks sent over both instances read back identically from either', async () => {
    const sent = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        rest(i % 2 ? b.url : a.url, 'POST', '/message:send', {
          message: { ...message(`echo ${i}`), contextId: `ctx-${i % 7}` },
        }),
      ),
    );
    const ids = sent.map((r) => {
      expect(r.status).toBe(200);
      expect(r.body.task.status.state).toBe('TASK_STATE_COMPLETED');
      return r.body.task.id as string;
    });
    for (let i = 0; i < ids.length; i += 20) {
      const batch = ids.slice(i, i + 20);
      const [fromA, fromB] = await Promise.all([
        Promise.all(batch.map((id) => rest(a.url, 'GET', `/tasks/${id}`))),
        Promise.all(batch.map((id) => rest(b.url, 'GET', `/tasks/${id}`))),
      ]);
      batch.forEach((id, j) => {
        expect(fromA[j]?.body).toEqual(fromB[j]?.body);
        expect(fromA[j]?.body.id).toBe(id);
        expect(fromA[j]?.body.status.message.parts[0].text).toBe(`echo ${ids.indexOf(id)}`);
      });
    }
    // ListTasks pages through the same 200 (and the earlier test's task) in the same order on both instances.
    const listAll = async (base: string) => {
      const out: unknown[] = [];
      let pageToken = '';
      do {
        const page = await rest(base, 'GET', `/tasks?pageSize=37${pageToken ? `&pageToken=${pageToken}` : ''}`);
        expect(page.status).toBe(200);
        out.push(...page.body.tasks);
        pageToken = page.body.nextPageToken ?? '';
      } while (pageToken);
      return out;
    };
    const [listedA, listedB] = await Promise.all([listAll(a.url), listAll(b.url)]);
    expect(listedA).toEqual(listedB);
    const listedIds = (listedA as { id: string }[]).map((t) => t.id);
    expect(new Set(listedIds).size).toBe(listedIds.length);
    for (const id of ids) expect(listedIds).toContain(id);
  });
});
