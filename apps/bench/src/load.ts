import { readFileSync } from 'node:fs';
import type { Pool } from 'undici';
import type { RequestSpec } from './requests.js';

/** Latencies and counters of one measured endpoint, accumulated over its slices. */
export interface Tally {
  latencies: number[];
  ok: number;
  failed: number;
  events: number;
  seconds: number;
  serverCpuSeconds: number;
}

export const newTally = (): Tally => ({
  latencies: [],
  ok: 0,
  failed: 0,
  events: 0,
  seconds: 0,
  serverCpuSeconds: 0,
});

/**
 * Closed loop: `connections` workers each send a request, read the whole answer (JSON or the SSE stream to its end),
 * record the latency and send the next, for `seconds` or until `amount` requests were sent.
 */
export async function closedLoop(
  pool: Pool,
  spec: RequestSpec,
  limits: {
    seconds?: number;
    amount?: number;
    connections: number;
    serverPid?: number | undefined;
  },
  tally: Tally = newTally(),
  counter = { n: 0 },
): Promise<Tally> {
  const started = performance.now();
  const until = limits.seconds ? started + limits.seconds * 1000 : Number.POSITIVE_INFINITY;
  const cpuBefore = cpuSeconds(limits.serverPid);
  let issued = 0;
  const worker = async () => {
    while (performance.now() < until && (limits.amount === undefined || issued < limits.amount)) {
      issued++;
      const t0 = performance.now();
      try {
        const answer = await pool.request({
          method: spec.method,
          path: spec.path,
          headers: spec.headers,
          body: spec.body?.(++counter.n) ?? null,
        });
        let good = answer.statusCode === 200;
        if (spec.sseEvents !== undefined) {
          const events = await countSseEvents(answer.body);
          if (events.error) good = false;
          good &&= events.count === spec.sseEvents;
          tally.events += events.count;
        } else {
          const text = await answer.body.text();
          if (spec.jsonRpc && text.includes('"error":')) good = false;
        }
        if (good) {
          tally.ok++;
          tally.latencies.push(performance.now() - t0);
        } else tally.failed++;
      } catch {
        tally.failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: limits.connections }, worker));
  tally.seconds += (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds(limits.serverPid);
  if (cpuBefore !== undefined && cpuAfter !== undefined) tally.serverCpuSeconds += cpuAfter - cpuBefore;
  return tally;
}

/** Counts `data:` frames of an SSE body without parsing JSON; an `event: error` frame marks the stream failed. */
async function countSseEvents(body: AsyncIterable<Buffer>): Promise<{ count: number; error: boolean }> {
  let count = 0;
  let error = false;
  let rest = '';
  for await (const chunk of body) {
    rest += chunk.toString('utf8');
    let end = rest.indexOf('\n\n');
    while (end !== -1) {
      const frame = rest.slice(0, end);
      rest = rest.slice(end + 2);
      if (/^event: ?error$/m.test(frame)) error = true;
      else if (/^data:/m.test(frame)) count++;
      end = rest.indexOf('\n\n');
    }
  }
  return { count, error };
}

/** utime + stime of a process from /proc (Linux), in seconds. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export interface Summary {
  rps: number;
  eventsPerSec?: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  serverCpuPct?: number;
}

export function summarize(tally: Tally): Summary {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  return {
    rps: tally.ok / tally.seconds,
    ...(tally.events ? { eventsPerSec: tally.events / tally.seconds } : {}),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ok: tally.ok,
    failed: tally.failed,
    ...(tally.serverCpuSeconds ? { serverCpuPct: (100 * tally.serverCpuSeconds) / tally.seconds } : {}),
  };
}
