// SendMessage throughput, in-memory store vs Redis, over real HTTP on 127.0.0.1, against Redis's own rate for the
// same writes: one raw pipeline per "request" (see measureRaw), from as many loops, in the same run.
//   A2A_BENCH_REDIS_URL=redis://... pnpm --filter @a2a/redis bench      (BENCH_MS, BENCH_CONCURRENCY, BENCH_ROWS)
// Without a URL it starts a redis-server of its own on 127.0.0.1:43490 (appendonly, fsync every second); the HTTP
// servers listen on ports the system picks. Each SendMessage creates a task and appends WORKING and COMPLETED. The HTTP
// client is node:http with keep-alive (cheaper than fetch: the client shares the process and its CPU).
// Each row also prints the CPU per request of this process and of redis-server, and this process's write syscalls
// per request (HTTP: 2; the store's Redis commands ride in its batched writes, corked-batches.ts: ~0.1 per request).
// With A2A_BENCH_REDIS_CLUSTER_URL (or A2A_TEST_REDIS_CLUSTER_URL: a Redis Cluster's seed node) two more rows run the
// store in its Cluster mode, with and without leases (redis-server CPU then summed over the masters).

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createA2AHandler,
  type ExecutionCoordinator,
  InMemoryTaskStore,
  type PushConfigStore,
  type TaskStore,
} from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { type Cluster, Redis } from 'ioredis';
import { RedisExecutionCoordinator, RedisTaskStore } from '../src/index.js';

const DURATION_MS = Number(process.env.BENCH_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

/** CPU (µs) of this process and of redis-server over the measured run: the work per request, which a loaded machine
 * cannot skew the way it skews req/s (it only schedules that work later). */
let cpu = { process: 0, redis: 0, writes: 0 };
/** Write syscalls of this process so far (Linux; NaN elsewhere). */
function writeCalls(): number {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}
/** The servers whose CPU the rows report: the standalone one, or a cluster's masters. */
let infoClients: Redis[] = [];
async function redisCpuUs(): Promise<number> {
  let sum = 0;
  for (const client of infoClients) {
    const info = await client.info('cpu');
    const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? Number.NaN);
    sum += (field('used_cpu_sys') + field('used_cpu_user')) * 1e6;
  }
  return sum;
}

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
  const before = { process: process.cpuUsage(), redis: await redisCpuUs(), writes: writeCalls() };
  const latencies = await run(DURATION_MS);
  const used = process.cpuUsage(before.process);
  const writes = writeCalls() - before.writes;
  cpu = { process: used.user + used.system, redis: (await redisCpuUs()) - before.redis, writes };
  return latencies;
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
  const { port } = server.address() as AddressInfo;
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

/**
 * Redis's rate for the same writes, as one plain pipeline per "request" (no checks, no scripts): what the store
 * writes for a SendMessage (createWith's task, first event and index entry, then COMPLETED's event, version and
 * state (no snapshot), expiry and index entry), command for command, less its reads (EXISTS, HGET) and the no-op
 * PEXPIREs of absent push keys.
 */
async function measureRaw(url: string, prefix: string) {
  const client = new Redis(url);
  const task = JSON.stringify({ id: 'x', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, history: [] });
  const event = JSON.stringify({ kind: 'status', status: { state: 'TASK_STATE_WORKING' } });
  const meta = (v: number, s: string) => JSON.stringify({ v, s, t: '2026-01-01T00:00:00.000Z', c: 'c' });
  let n = 0;
  const write = async () => {
    const id = randomBytes(8).toString('hex');
    const key = `${prefix}:{t:${id}}`;
    const owner = `${prefix}:{o:raw}`;
    const results = await client
      .pipeline()
      // createWith: the task at version 2 with its first event, and its index entry
      .xadd(`${key}:log`, '2-0', 'c', 'c', 's', 'TASK_STATE_WORKING', 'e', event)
      .hset(key, 'o', '', 'c', 'c', 's', 'TASK_STATE_WORKING', 'ts', '', 'j', task, 'v', 2, 'sv', 2)
      .hset(`${owner}:meta`, id, meta(2, 'TASK_STATE_WORKING'))
      .incr(`${owner}:seq`)
      .zadd(`${owner}:list`, ++n, id)
      .zrem(`${owner}:expiry`, id)
      // COMPLETED: its event, the task's version and state (no snapshot: the store writes none on a status change),
      // the finished task's expiry, its index entry
      .xadd(`${key}:log`, '3-0', 'c', 'c', 's', 'TASK_STATE_COMPLETED', 'e', event)
      .hset(key, 'v', 3, 's', 'TASK_STATE_COMPLETED', 'ts', '')
      .pexpire(key, 3_600_000)
      .pexpire(`${key}:log`, 3_600_000)
      .hset(`${owner}:meta`, id, meta(3, 'TASK_STATE_COMPLETED'))
      .incr(`${owner}:seq`)
      .zadd(`${owner}:list`, ++n, id)
      .zadd(`${owner}:expiry`, Date.now() + 3_600_000, id)
      .exec();
    if (results?.some(([error]) => error)) throw new Error('raw pipeline failed');
  };
  const latencies = await drive(write);
  client.disconnect();
  return report('raw pipeline', latencies);
}

function report(name: string, latencies: number[]): number {
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(1);
  const rps = latencies.length / (DURATION_MS / 1000);
  console.log(
    `${name.padEnd(14)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${q(0.5)} ms   p99 ${q(0.99)} ms   (concurrency ${CONCURRENCY})` +
      `   CPU/req: process ${(cpu.process / latencies.length).toFixed(0)} µs, redis-server ${(cpu.redis / latencies.length).toFixed(0)} µs;` +
      ` writes/req ${(cpu.writes / latencies.length).toFixed(2)}`,
  );
  return rps;
}

/** A redis-server of the bench's own when no URL is given. */
async function ownServer(): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-redis-bench-'));
  const port = 43490;
  const child: ChildProcess = spawn(
    process.env.A2A_REDIS_SERVER ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'],
    { stdio: 'ignore' },
  );
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null });
  client.on('error', () => {});
  for (let i = 0; i < 100; i++) {
    try {
      await client.connect();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  client.disconnect();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const given = process.env.A2A_BENCH_REDIS_URL ?? process.env.A2A_TEST_REDIS_URL;
const own = given ? undefined : await ownServer();
const url = (given ?? own?.url) as string;
const prefix = `a2a-bench-${randomBytes(4).toString('hex')}`;
const infoClient = new Redis(url); // redis-server's CPU is the whole server's: others' load on a shared one counts too
infoClients = [infoClient];
const clusterUrl = process.env.A2A_BENCH_REDIS_CLUSTER_URL ?? process.env.A2A_TEST_REDIS_CLUSTER_URL;
// BENCH_ROWS=raw,redis (e.g. to profile one row): the rows to run; default all (the cluster rows with a cluster URL).
const rows = new Set(
  (process.env.BENCH_ROWS ?? `memory,raw,redis,leases${clusterUrl ? ',cluster,cluster-leases' : ''}`).split(','),
);
const memory = rows.has('memory') ? await measure('in-memory', new InMemoryTaskStore()) : Number.NaN;
const store = await RedisTaskStore.connect({ url, keyPrefix: prefix, finishedTaskTtlMs: 600_000 });
const raw = rows.has('raw') ? await measureRaw(url, `${prefix}-raw`) : Number.NaN;
const redis = rows.has('redis') ? await measure('redis', store) : Number.NaN;
const coordinator = new RedisExecutionCoordinator({ store });
await coordinator.start();
const leased = rows.has('leases') ? await measure('redis + leases', store, coordinator) : Number.NaN;
coordinator.close();
/** Leaves a shared server as found: the bench's keys go (UNLINK one key at a time: a Cluster spreads them). */
async function removeKeys(node: Redis) {
  for (const pattern of [`${prefix}:*`, `${prefix}-raw:*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      await Promise.all(keys.map((key) => node.unlink(key)));
    } while (cursor !== '0');
  }
}
await removeKeys(store.client as Redis);
await store.close();
infoClient.disconnect();
own?.stop();
let clustered = Number.NaN;
let clusteredLeased = Number.NaN;
if (clusterUrl && (rows.has('cluster') || rows.has('cluster-leases'))) {
  const cstore = await RedisTaskStore.connect({ url: clusterUrl, keyPrefix: prefix, finishedTaskTtlMs: 600_000 });
  if (!cstore.cluster) throw new Error(`${clusterUrl} is not a Redis Cluster node`);
  const masters = (cstore.client as Cluster).nodes('master');
  infoClients = masters;
  if (rows.has('cluster')) clustered = await measure('cluster', cstore);
  const ccoordinator = new RedisExecutionCoordinator({ store: cstore });
  await ccoordinator.start();
  if (rows.has('cluster-leases')) clusteredLeased = await measure('cluster + leases', cstore, ccoordinator);
  ccoordinator.close();
  for (const node of masters) await removeKeys(node);
  await cstore.close();
}
const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
console.log(`SendMessage on Redis / raw pipeline: ${pct(redis, raw)} (with execution leases: ${pct(leased, raw)})`);
console.log(`Redis / in-memory: ${pct(redis, memory)} (with execution leases: ${pct(leased, memory)})`);
if (clusterUrl) {
  console.log(
    `Cluster mode / standalone: ${pct(clustered, redis)} (with execution leases: ${pct(clusteredLeased, leased)})`,
  );
}
