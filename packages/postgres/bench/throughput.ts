// SendMessage throughput, in-memory store vs PostgreSQL, over real HTTP on 127.0.0.1.
//   A2A_BENCH_DATABASE_URL=postgresql://... node --conditions=@a2a/source --import tsx bench/throughput.ts
// Each SendMessage creates a task and appends WORKING and COMPLETED (1 insert + 2 version-checked appends).

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import {
  createA2AHandler,
  type ExecutionCoordinator,
  InMemoryTaskStore,
  type PushConfigStore,
  type TaskStore,
} from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import pg from 'pg';
import { PostgresExecutionCoordinator, PostgresTaskStore } from '../src/index.js';

const DURATION_MS = Number(process.env.BENCH_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

async function measure(name: string, taskStore: TaskStore & PushConfigStore, coordinator?: ExecutionCoordinator) {
  const a2a = createA2AHandler({
    agentCard: {
      name: 'bench',
      description: 'bench',
      version: '1',
      skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
    },
    executor: {
      async execute(ctx) {
        await ctx.working();
        await ctx.complete('ok');
      },
    },
    taskStore,
    ...(coordinator && { coordinator }),
  });
  const server = createServer(createNodeHandler(a2a));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/message:send`;
  const send = async () => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: { messageId: randomBytes(8).toString('hex'), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      }),
    });
    const body = (await r.json()) as { task?: { status: { state: string } } };
    if (body.task?.status.state !== 'TASK_STATE_COMPLETED')
      throw new Error(`unexpected answer ${JSON.stringify(body)}`);
  };
  const run = async (ms: number) => {
    const latencies: number[] = [];
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < end) {
          const t = performance.now();
          await send();
          latencies.push(performance.now() - t);
        }
      }),
    );
    return latencies.sort((a, b) => a - b);
  };
  await run(1000); // warm-up
  const latencies = await run(DURATION_MS);
  server.closeAllConnections();
  server.close();
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(1);
  const rps = latencies.length / (DURATION_MS / 1000);
  console.log(
    `${name.padEnd(12)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${q(0.5)} ms   p99 ${q(0.99)} ms   (concurrency ${CONCURRENCY})`,
  );
  return rps;
}

const baseUrl = process.env.A2A_BENCH_DATABASE_URL ?? process.env.A2A_TEST_DATABASE_URL;
if (!baseUrl) {
  // `pnpm bench` runs on a machine without PostgreSQL too: say how to include this row, and do not fail the run.
  console.log('PostgreSQL row skipped: set A2A_BENCH_DATABASE_URL (scripts/start-postgres.sh start prints one)');
  process.exit(0);
}
const memory = await measure('in-memory', new InMemoryTaskStore());
const name = `a2a_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const dbUrl = new URL(baseUrl);
dbUrl.pathname = `/${name}`;
const store = await PostgresTaskStore.connect({ connection: dbUrl.toString() });
const postgres = await measure('postgresql', store);
const coordinator = new PostgresExecutionCoordinator({ store });
const leased = await measure('pg + leases', store, coordinator);
coordinator.close();
await store.close();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
console.log(
  `PostgreSQL / in-memory: ${((postgres / memory) * 100).toFixed(1)}% (with execution leases: ${((leased / memory) * 100).toFixed(1)}%)`,
);
