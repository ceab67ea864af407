// SendMessage throughput, in-memory store vs PostgreSQL, over real HTTP on 127.0.0.1, against the database's own
// rate for the same writes: a raw transaction (BEGIN, INSERT, two version-checked UPDATEs, COMMIT) per "request" on a
// pool of the same size, at the same concurrency, in the same run.
//   A2A_BENCH_DATABASE_URL=postgresql://... pnpm --filter @a2a/postgres bench      (BENCH_MS, BENCH_CONCURRENCY)
// Each SendMessage creates a task and appends WORKING and COMPLETED (1 insert + 2 version-checked appends). The HTTP
// client is node:http with keep-alive (cheaper than fetch: the client shares the process and its CPU).

import { randomBytes } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
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

/** `op` from CONCURRENCY loops: a 1 s warm-up, then DURATION_MS measured; the sorted latencies (ms). */
async function drive(op: () => Promise<void>): Promise<number[]> {
  const run = async (ms: number) => {
    const latencies: number[] = [];
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < end) {
          const t = performance.now();
          await op();
          latencies.push(performance.now() - t);
        }
      }),
    );
    return latencies.sort((a, b) => a - b);
  };
  await run(1000); // warm-up
  return run(DURATION_MS);
}

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
  const port = (server.address() as { port: number }).port;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const send = () =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        message: { messageId: randomBytes(8).toString('hex'), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      });
      const req = request({ agent, host: '127.0.0.1', port, method: 'POST', path: '/message:send' }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const answer = JSON.parse(text) as { task?: { status: { state: string } } };
          if (answer.task?.status.state === 'TASK_STATE_COMPLETED') resolve();
          else reject(new Error(`unexpected answer ${text}`));
        });
      });
      req.on('error', reject);
      req.setHeader('content-type', 'application/json');
      req.end(body);
    });
  const latencies = await drive(send);
  agent.destroy();
  server.closeAllConnections();
  server.close();
  return report(name, latencies);
}

/** The database's rate for the same three writes, as one plain transaction per "request". */
async function measureRaw(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  const task = JSON.stringify({ id: 'x', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' }, history: [] });
  const write = async () => {
    const id = randomBytes(8).toString('hex');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO a2a_tasks (id, owner, context_id, state, version, task) VALUES ($1, '', 'c', 'TASK_STATE_SUBMITTED', 1, $2::json)`,
        [id, task],
      );
      for (const [version, state] of [
        [1, 'TASK_STATE_WORKING'],
        [2, 'TASK_STATE_COMPLETED'],
      ] as const) {
        const { rowCount } = await client.query(
          'UPDATE a2a_tasks SET version = version + 1, state = $3, task = $4::json WHERE id = $1 AND version = $2',
          [id, version, state, task],
        );
        if (rowCount !== 1) throw new Error('lost update');
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  const latencies = await drive(write);
  await pool.end();
  return report('raw 3-write tx', latencies);
}

function report(name: string, latencies: number[]): number {
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(1);
  const rps = latencies.length / (DURATION_MS / 1000);
  console.log(
    `${name.padEnd(14)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${q(0.5)} ms   p99 ${q(0.99)} ms   (concurrency ${CONCURRENCY})`,
  );
  return rps;
}

const baseUrl = process.env.A2A_BENCH_DATABASE_URL ?? process.env.A2A_TEST_DATABASE_URL;
if (!baseUrl) {
  // `pnpm bench` runs on a machine without PostgreSQL too: say how to include this row, and do not fail the run.
  console.log('PostgreSQL row skipped: set A2A_BENCH_DATABASE_URL (scripts/start-postgres.sh start prints one)');
  process.exit(0);
}
// BENCH_ROWS=raw,leases (e.g. to profile one row): the rows to run; default all.
const rows = new Set((process.env.BENCH_ROWS ?? 'memory,raw,pg,leases').split(','));
const memory = rows.has('memory') ? await measure('in-memory', new InMemoryTaskStore()) : Number.NaN;
const name = `a2a_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const dbUrl = new URL(baseUrl);
dbUrl.pathname = `/${name}`;
const store = await PostgresTaskStore.connect({ connection: dbUrl.toString() });
const raw = rows.has('raw') ? await measureRaw(dbUrl.toString()) : Number.NaN;
const postgres = rows.has('pg') ? await measure('postgresql', store) : Number.NaN;
const coordinator = new PostgresExecutionCoordinator({ store });
const leased = rows.has('leases') ? await measure('pg + leases', store, coordinator) : Number.NaN;
coordinator.close();
await store.close();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
console.log(
  `SendMessage on PostgreSQL / raw 3-write transaction: ${pct(postgres, raw)} (with execution leases: ${pct(leased, raw)})`,
);
console.log(`PostgreSQL / in-memory: ${pct(postgres, memory)} (with execution leases: ${pct(leased, memory)})`);
