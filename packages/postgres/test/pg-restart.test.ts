import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Listening, listen } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { eventually, message, openStream, rest, rpc } from '@a2a/store-testsuite/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskStoreFromEnv, type TaskStoreSetup } from '../src/index.js';
import { hasDatabase } from './db.js';

const script = fileURLToPath(new URL('../../../scripts/start-postgres.sh', import.meta.url));
const run = promisify(execFile);

/** Its own throwaway cluster: stopping it must not disturb the other test files. */
describe.runIf(hasDatabase)('PostgreSQL restarts under a running server', () => {
  let state: string;
  let url: string;
  let setup: TaskStoreSetup;
  let server: Listening | undefined;
  let base: string;
  const pg = async (command: 'start' | 'stop') =>
    (
      await run('bash', [script, command], {
        env: { ...process.env, A2A_PG_STATE: state, A2A_PG_STOP_MODE: 'immediate' },
      })
    ).stdout.trim();

  beforeAll(async () => {
    state = await mkdtemp(join(tmpdir(), 'a2a-pg-restart-'));
    url = await pg('start');
    setup = await createTaskStoreFromEnv({ A2A_DATABASE_URL: url, A2A_LEASE_TTL_MS: '3000' });
    const a2a = createA2AHandler({
      agentCard: {
        name: 'restart',
        description: 'restart test agent',
        version: '1.0.0',
        capabilities: { streaming: true },
        skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      },
      executor: {
        async execute(ctx) {
          const text = ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');
          await ctx.working();
          if (text === 'hang')
            await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
          else await ctx.complete(`echo: ${text}`);
        },
      },
      taskStore: setup.taskStore,
      ...(setup.coordinator && { coordinator: setup.coordinator }),
      keepAliveMs: 300,
      onError: () => {},
    });
    server = await listen(createNodeHandler(a2a));
    base = server.url;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await setup?.close();
    await pg('stop').catch(() => {});
    await rm(state, { recursive: true, force: true });
  });

  it('fails requests fast with 503 during the outage, then serves again and streams resume', async () => {
    const before = await rest(base, 'POST', '/message:send', { message: message('one') });
    expect(before.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    const hanging = await rest(base, 'POST', '/message:send', {
      message: message('hang'),
      configuration: { returnImmediately: true },
    });
    const id = hanging.body.task.id as string;
    await eventually(async () => (await rest(base, 'GET', `/tasks/${id}`)).body.status.state === 'TASK_STATE_WORKING');
    const stream = await openStream(base, `/tasks/${id}:subscribe`, {});
    expect(JSON.parse((await stream.next())?.data ?? '{}').task.id).toBe(id);

    await pg('stop');
    const started = Date.now();
    const get = await rest(base, 'GET', `/tasks/${before.body.task.id}`);
    expect(get.status).toBe(503);
    expect(get.body.error.status).toBe('UNAVAILABLE');
    const send = await rest(base, 'POST', '/message:send', { message: message('two') });
    expect(send.status).toBe(503);
    const viaRpc = await rpc(base, 'GetTask', { id: before.body.task.id });
    expect(viaRpc.body.error.code).toBe(-32603);
    expect(viaRpc.body.error.message).toMatch(/unavailable/i);
    expect(Date.now() - started).toBeLessThan(8000); // fast failures, not hangs

    await pg('start');
    const after = await eventually(async () => {
      const r = await rest(base, 'POST', '/message:send', { message: message('three') });
      return r.status === 200 && r.body;
    }, 20_000);
    expect(after.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await rest(base, 'GET', `/tasks/${before.body.task.id}`)).body.status.state).toBe('TASK_STATE_COMPLETED');

    // The stream opened before the outage still delivers what happens after it (LISTEN reconnected, or the poll).
    const canceled = await rest(base, 'POST', `/tasks/${id}:cancel`, {});
    expect(canceled.body.status.state).toBe('TASK_STATE_CANCELED');
    const update = await stream.next(10_000);
    expect(JSON.parse(update?.data ?? '{}').statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
  });
});
