import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Listening, listen } from '@a2a/adapter-testsuite';
import { type AgentContext, createA2AHandler, newTask, type TaskStore } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { eventually, message, rest } from '@a2a/store-testsuite/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTaskStoreFromEnv,
  PostgresExecutionCoordinator,
  type PostgresTaskStore,
  type TaskStoreSetup,
} from '../src/index.js';
import { hasDatabase } from './db.js';

const script = fileURLToPath(new URL('../../../scripts/start-postgres.sh', import.meta.url));
const run = promisify(execFile);
const LEASE_TTL_MS = 1500;
/** The server's own coordinator: its janitor waits this long after reconnecting, longer than a retry's pause. */
const SERVER_LEASE_TTL_MS = 4000;

/**
 * Executions and the janitor across real PostgreSQL outages (`pg_ctl -m immediate` stop, then start), on a throwaway
 * cluster of this file's own.
 */
describe.runIf(hasDatabase)('PostgreSQL outages under running executions', () => {
  let state: string;
  let url: string;
  let setup: TaskStoreSetup;
  const servers: Listening[] = [];
  /** Appends the store refused during an outage. */
  let refusedAppends = 0;
  /** Opened by the test: the agent's next step runs. */
  const gates = new Map<string, () => void>();
  const pg = async (command: 'start' | 'stop') =>
    (
      await run('bash', [script, command], {
        env: { ...process.env, A2A_PG_STATE: state, A2A_PG_STOP_MODE: 'immediate' },
      })
    ).stdout.trim();

  /** `gate`: WORKING, then waits for the test, then COMPLETED (a failed write is ignored, as careless agents do). */
  async function execute(ctx: AgentContext): Promise<void> {
    await ctx.working();
    await new Promise<void>((resolve) => gates.set(ctx.taskId, resolve));
    await ctx.complete('done after the outage').catch(() => {});
  }

  async function startHandler(storeRetryMs?: number, errors: unknown[] = []): Promise<string> {
    // Counts the appends the store refuses (the test waits for one before it brings the database back).
    const store = Object.create(setup.taskStore) as TaskStore;
    store.append = async (...args) => {
      try {
        return await setup.taskStore.append(...args);
      } catch (error) {
        refusedAppends++;
        throw error;
      }
    };
    const a2a = createA2AHandler({
      agentCard: {
        name: 'outage',
        description: 'outage test agent',
        version: '1.0.0',
        capabilities: { streaming: true },
        skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      },
      executor: { execute },
      taskStore: store,
      pushConfigStore: setup.taskStore,
      ...(setup.coordinator && { coordinator: setup.coordinator }),
      ...(storeRetryMs !== undefined && { storeRetryMs }),
      onError: (error) => errors.push(error),
    });
    const server = await listen(createNodeHandler(a2a));
    servers.push(server);
    return server.url;
  }

  const startTask = async (base: string) => {
    const sent = await rest(base, 'POST', '/message:send', {
      message: message('gate'),
      configuration: { returnImmediately: true },
    });
    const id = sent.body.task.id as string;
    await eventually(() => gates.has(id));
    return id;
  };
  const leases = async () =>
    (
      await (setup.postgres as PostgresTaskStore).pool.query<{ task_id: string }>(
        'SELECT task_id FROM a2a_execution_leases',
      )
    ).rows.map((r) => r.task_id);

  beforeAll(async () => {
    state = await mkdtemp(join(tmpdir(), 'a2a-pg-outage-'));
    url = await pg('start');
    setup = await createTaskStoreFromEnv({ A2A_DATABASE_URL: url, A2A_LEASE_TTL_MS: String(SERVER_LEASE_TTL_MS) });
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await setup?.close();
    await pg('stop').catch(() => {});
    await rm(state, { recursive: true, force: true });
  });

  it("an agent's status write during an outage lands once the database is back; a give-up still ends the task", async () => {
    const patient = await startHandler();
    const hastyErrors: unknown[] = [];
    const hasty = await startHandler(2500, hastyErrors); // gives up on the store after 2.5 s
    const kept = await startTask(patient);
    const dropped = await startTask(hasty);

    await pg('stop');
    refusedAppends = 0;
    gates.get(kept)?.();
    gates.get(dropped)?.();
    await eventually(() => refusedAppends >= 2); // both completions were refused at least once
    await eventually(() => hastyErrors.some((e) => /gave up/.test(String(e))));
    await pg('start');

    // The write is retried until the store is back: COMPLETED, and the execution let go of its lease.
    await eventually(
      async () => (await rest(patient, 'GET', `/tasks/${kept}`)).body?.status?.state === 'TASK_STATE_COMPLETED',
      15_000,
    );
    // The execution that gave up let go of its lease and ends the task FAILED, saying why, once the store is back.
    const failed = await eventually(async () => {
      const task = (await rest(patient, 'GET', `/tasks/${dropped}`)).body;
      return task?.status?.state === 'TASK_STATE_FAILED' && task;
    }, 15_000);
    expect(failed.status.message.parts[0].text).toMatch(
      /progress could not be recorded: the task store was unavailable/,
    );
    await eventually(async () => (await leases()).length === 0);
    expect((setup.coordinator as PostgresExecutionCoordinator).runningCount).toBe(0);
  }, 60_000);

  it('the janitor gives a live owner a full lease TTL after the database returns before failing its tasks', async () => {
    const store = setup.postgres as PostgresTaskStore;
    const janitor = new PostgresExecutionCoordinator({ store, leaseTtlMs: LEASE_TTL_MS, instanceId: 'janitor' });
    try {
      const id = `live-${Date.now()}`;
      await store.create(newTask(id, 'ctx', { ...message('x'), role: 'ROLE_USER' }, new Date().toISOString()), 'o');
      await store.append(id, 1, { kind: 'status', status: { state: 'TASK_STATE_WORKING' } });
      // Instance "owner" renews its lease, then the database goes away for longer than the lease.
      const renew = () =>
        store.query(
          `INSERT INTO a2a_execution_leases (task_id, instance_id, expires_at) VALUES ($1, 'owner', now() + $2 * interval '1 millisecond')
           ON CONFLICT (task_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
          [id, LEASE_TTL_MS],
        );
      await renew();
      await pg('stop');
      await janitor.tick(); // fails: the janitor knows it was cut off
      await new Promise((resolve) => setTimeout(resolve, LEASE_TTL_MS * 1.5));
      await pg('start');

      // Right after the database returns every lease looks long expired; the owner has not renewed yet.
      await eventually(async () => (await store.query('SELECT 1')).rowCount === 1);
      await janitor.tick();
      await janitor.tick();
      expect((await store.get(id))?.task.status.state).toBe('TASK_STATE_WORKING');
      // The owner is alive and renews within the grace: its task is left alone.
      await renew();
      await new Promise((resolve) => setTimeout(resolve, LEASE_TTL_MS));
      await janitor.tick();
      expect((await store.get(id))?.task.status.state).toBe('TASK_STATE_WORKING');
      // An owner that really is gone stops renewing: its task fails after the lease expires.
      const ended = await eventually(async () => {
        await janitor.tick();
        const task = (await store.get(id))?.task;
        return task?.status.state === 'TASK_STATE_FAILED' ? task : undefined;
      }, 15_000);
      expect(ended?.status.message?.parts[0]?.text).toMatch(/instance owner stopped renewing/);
    } finally {
      janitor.close();
    }
  }, 60_000);
});
