import { type Listening, listen } from '@a2a/adapter-testsuite';
import { type AgentContext, createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { message, rpc } from '@a2a/store-testsuite/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskStoreFromEnv, type PostgresTaskStore, type TaskStoreSetup } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

/** `chat N`: N WORKING updates, then INPUT_REQUIRED (the turn ends; the client may continue the task). */
async function execute(ctx: AgentContext): Promise<void> {
  const text = ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');
  const steps = Number(/^chat (\d+)$/.exec(text)?.[1] ?? 0);
  for (let i = 0; i < steps; i++) await ctx.working(`step ${i}`);
  await ctx.inputRequired('more?');
}

interface Node {
  url: string;
  server: Listening;
  setup: TaskStoreSetup;
  errors: unknown[];
}

/** One instance: its own pool, LISTEN connection and lease coordinator, behind its own HTTP server. */
async function startNode(databaseUrl: string, name: string): Promise<Node> {
  const setup = await createTaskStoreFromEnv({ A2A_DATABASE_URL: databaseUrl, A2A_INSTANCE_ID: name });
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
    ...(setup.coordinator && { coordinator: setup.coordinator }),
    onError: (error) => errors.push(error),
  });
  const server = await listen(createNodeHandler(a2a));
  return { url: server.url, server, setup, errors };
}

describe.runIf(hasDatabase)('two instances racing on one task', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: Node;
  let b: Node;

  beforeAll(async () => {
    db = await createTestDatabase();
    a = await startNode(db.url, 'a');
    b = await startNode(db.url, 'b');
  });
  afterAll(async () => {
    for (const node of [a, b]) {
      await node?.server.close();
      await node?.setup.close();
    }
    await db?.drop();
  });

  const continueTask = (on: Node, taskId: string, text: string) =>
    rpc(on.url, 'SendMessage', { message: { ...message(text), taskId } });
  /** The states the task's status events set, in log order; `history` for a client's message. */
  const states = async (taskId: string) => {
    const { rows } = await (a.setup.postgres as PostgresTaskStore).pool.query<{ kind: string; state: string }>(
      'SELECT kind, state FROM a2a_task_events WHERE task_id = $1 ORDER BY seq',
      [taskId],
    );
    return rows.map((r) => (r.kind === 'status' ? r.state : r.kind));
  };

  it("concurrent continuations from both instances: every request succeeds and the agents' writes all land", async () => {
    const created = await rpc(a.url, 'SendMessage', { message: message('chat 1') });
    const taskId = created.body.result.task.id as string;
    expect(created.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(
        [a, b, a, b, a, b].map((node, i) => continueTask(node, taskId, `chat ${8 + i}`)),
      );
      for (const reply of replies) {
        expect(reply.body.error).toBeUndefined();
        expect(reply.body.result.task.status.state).not.toBe('TASK_STATE_FAILED');
      }
    }
    const final = await rpc(b.url, 'GetTask', { id: taskId });
    // Every execution ended with its own INPUT_REQUIRED; none of them was turned FAILED by a lost race.
    expect(final.body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const log = await states(taskId);
    expect(log).not.toContain('TASK_STATE_FAILED');
    // 18 client messages, 1 + 3 * sum(8..13) WORKING updates, 1 + 18 INPUT_REQUIRED: nothing lost.
    expect(log.filter((s) => s === 'history').length).toBe(18);
    expect(log.filter((s) => s === 'TASK_STATE_INPUT_REQUIRED').length).toBe(19);
    expect(log.filter((s) => s === 'TASK_STATE_WORKING').length).toBe(1 + 3 * (8 + 9 + 10 + 11 + 12 + 13));
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('continuations racing cancels from both instances: one CANCELED, clear errors for the losers, never -32603', async () => {
    for (let round = 0; round < 3; round++) {
      const created = await rpc(a.url, 'SendMessage', { message: message('chat 1') });
      const taskId = created.body.result.task.id as string;
      const sends = [a, b, a, b].map((node) => continueTask(node, taskId, 'chat 12'));
      const cancels = [b, a].map((node) => rpc(node.url, 'CancelTask', { id: taskId }));
      const [sent, canceled] = await Promise.all([Promise.all(sends), Promise.all(cancels)]);
      for (const reply of sent) {
        // Accepted (the blocking call answers the task as it is when its turn ends: CANCELED, or INPUT_REQUIRED or
        // WORKING from the concurrent executions, never FAILED), or refused because the task was already canceled:
        // UnsupportedOperation.
        if (reply.body.error) expect(reply.body.error.code).toBe(-32004);
        else expect(reply.body.result.task.status.state).toMatch(/CANCELED|INPUT_REQUIRED|WORKING/);
      }
      for (const reply of canceled) {
        // Either cancel may win; the other sees the task CANCELED already (or answers TaskNotCancelable).
        if (reply.body.error) expect(reply.body.error.code).toBe(-32002);
        else expect(reply.body.result.status.state).toBe('TASK_STATE_CANCELED');
      }
      expect(canceled.some((reply) => reply.body.result?.status.state === 'TASK_STATE_CANCELED')).toBe(true);
      const final = await rpc(b.url, 'GetTask', { id: taskId });
      expect(final.body.result.status.state).toBe('TASK_STATE_CANCELED');
      expect(await states(taskId)).not.toContain('TASK_STATE_FAILED');
    }
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
