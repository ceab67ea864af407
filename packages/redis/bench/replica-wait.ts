// The cost of the `wait` option (README, "Durability"): appends on a Redis Cluster with replicas, without and with
// `wait: { replicas: 1 }`, in alternating rounds in one process (A/B side by side on a shared machine).
//   A2A_BENCH_REPLICA_CLUSTER_URL=redis://127.0.0.1:27020 node --conditions=@a2a/source --import tsx bench/replica-wait.ts
// (A2A_REDIS_CLUSTER_REPLICAS=1 scripts/start-redis-cluster.sh starts one; BENCH_ROUNDS, BENCH_MS, BENCH_CONCURRENCY.)
// Each loop appends to its own task (one task per loop, spread over the slots), one append at a time: appends/s and
// the latency of one append (median, p99).

import { randomBytes } from 'node:crypto';
import { newTask, type TaskEvent } from '@a2a/core';
import { RedisTaskStore } from '../src/index.js';

const url = process.env.A2A_BENCH_REPLICA_CLUSTER_URL ?? process.env.A2A_TEST_REDIS_REPLICA_CLUSTER_URL;
if (!url) throw new Error('A2A_BENCH_REPLICA_CLUSTER_URL: the seed node of a Redis Cluster with replicas');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

async function round(wait: boolean): Promise<{ perSecond: number; p50: number; p99: number }> {
  const prefix = `a2a-bench-wait-${randomBytes(4).toString('hex')}`;
  const store = await RedisTaskStore.connect({
    url: url as string,
    keyPrefix: prefix,
    finishedTaskTtlMs: 60_000,
    ...(wait && { wait: { replicas: 1, timeoutMs: 1000 } }),
  });
  const ts = new Date().toISOString();
  const latencies: number[] = [];
  const chunk: TaskEvent = { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: 'x'.repeat(100) }] } };
  try {
    const ids = Array.from({ length: CONCURRENCY }, (_, i) => `t${i}`);
    for (const id of ids) {
      const first = { messageId: id, role: 'ROLE_USER' as const, parts: [{ text: 'go' }], taskId: id, contextId: 'c' };
      await store.create(newTask(id, 'c', first, ts), 'o');
    }
    const until = Date.now() + DURATION_MS;
    await Promise.all(
      ids.map(async (id) => {
        for (let version = 1; Date.now() < until; ) {
          const started = performance.now();
          version = (await store.append(id, version, chunk)).seq;
          latencies.push(performance.now() - started);
        }
      }),
    );
    // Finished tasks expire (finishedTaskTtlMs): the bench leaves nothing behind for long.
    await Promise.all(
      ids.map(async (id) => {
        const stored = await store.get(id);
        if (stored)
          await store.append(id, stored.version, { kind: 'status', status: { state: 'TASK_STATE_COMPLETED' } });
      }),
    );
  } finally {
    await store.close();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { perSecond: (latencies.length / DURATION_MS) * 1000, p50: at(0.5), p99: at(0.99) };
}

console.log(`appends on ${url}, ${CONCURRENCY} loops, ${DURATION_MS} ms a round, ${ROUNDS} rounds each, alternating`);
for (let r = 0; r < ROUNDS; r++) {
  for (const wait of r % 2 === 0 ? [false, true] : [true, false]) {
    const { perSecond, p50, p99 } = await round(wait);
    console.log(
      `${wait ? 'wait 1   ' : 'no wait  '} ${perSecond.toFixed(0).padStart(6)} appends/s  p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms`,
    );
  }
}
