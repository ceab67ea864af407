// Scale scenarios (`pnpm --dir apps/bench scale -- --scenario <streams|cross|idle> [options]`), each on fresh bench
// servers (dist/main.js, --expose-gc) driven from this process:
// - streams: `--streams 2000` concurrent SSE streams (SendStreamingMessage, messageId bench-chunks-<chunks>-<interval>,
//   default 100 chunks every 100 ms): delivery latency publish→client p50/p99 (`latencyMs`) and schedule→client
//   (`lagMs`: adds how late a busy server ran the agent), request→first event (`firstEventMs`), server CPU per event,
//   streams that did not end COMPLETED;
//   then the same load again for server heap and RSS per open stream (after GC, all streams open, minus the idle
//   server);
// - cross: two instances on one PostgreSQL (A2A_DATABASE_URL required): each task is started on A (returnImmediately)
//   and followed on B (SubscribeToTask); latency publish on A → client of B, under `--streams` such tasks;
// - idle: `--tasks 10000` tasks left INPUT_REQUIRED (text `input-required`): server heap per waiting task.
// `--adapter koa|express|hapi|sdk` (default koa); the store is PostgreSQL when A2A_DATABASE_URL is set. Prints one
// JSON line (and appends it to bench/results/scale.jsonl at the repo root).
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, hostname, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { numberArg, parseArgs } from './args.js';
import { chunkScheduledAt, chunkSentAt } from './paced-chunks.js';

const args = parseArgs(process.argv.slice(2));
const scenario = args.scenario ?? 'streams';
const adapter = args.adapter ?? 'koa';
const streams = numberArg(args, 'streams', 2000);
const chunks = numberArg(args, 'chunks', 100);
const interval = numberArg(args, 'interval', 100);
const tasks = numberArg(args, 'tasks', 10_000);
const basePort = numberArg(args, 'port', 41500);
const dist = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
/** Client-side errors by code (e.g. ECONNRESET when the server's accept queue overflowed). */
const errors = new Map<string, number>();

interface Server {
  child: ChildProcess;
  base: string;
}

async function startServer(port: number, env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      // e.g. BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (docs/performance.md, "Scale")
      ...(process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
      `${dist}main.js`,
      '--adapter',
      adapter,
      '--port',
      String(port),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('READY')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before READY: ${out}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000); // (a --cpu-prof takes a while to write)
  await exited;
  clearTimeout(timer);
}

/** POST a JSON-RPC call; `onData` gets the SSE data payloads of a stream, else the whole JSON answer is returned. */
function rpc(base: string, method: string, params: unknown, onData?: (data: string) => void): Promise<string> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const url = new URL(`${base}/a2a/jsonrpc`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          accept: onData ? 'text/event-stream' : 'application/json',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (!onData) return;
          // Frames end with a blank line; each holds one `data:` line (our server and the SDK's alike).
          for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
            const frame = text.slice(0, end);
            text = text.slice(end + 2);
            for (const line of frame.split('\n')) if (line.startsWith('data:')) onData(line.slice(5).trim());
          }
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const memory = async (base: string) =>
  JSON.parse(
    await new Promise<string>((resolve, reject) => {
      request(`${base}/__bench/mem?gc=1`, { agent }, (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve(text));
      })
        .on('error', reject)
        .end();
    }),
  ) as { heapUsed: number; rss: number };

/** CPU seconds a process used so far (Linux /proc). */
async function cpuSeconds(pid: number | undefined): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(stat[11]) + Number(stat[12])) / 100; // utime + stime, in clock ticks (100/s)
}

const perStreamKB = (loaded: number | undefined, idle: number | undefined) =>
  loaded === undefined || idle === undefined ? null : Number(((loaded - idle) / streams / 1024).toFixed(1));
const message = (messageId: string, text = 'hi') => ({ messageId, role: 'ROLE_USER', parts: [{ text }] });
const quantile = (sorted: number[], q: number) =>
  sorted.length ? Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1)) : null;

/** How a stream went: ended COMPLETED, ended (or broke) before, or never opened (connection refused or reset). */
type Outcome = 'completed' | 'dropped' | 'refused';

/** Follows one stream: latency of every chunk, and how it ended. */
function follow(base: string, method: string, params: unknown, samples: Samples, opened: () => void): Promise<Outcome> {
  let completed = false;
  let first = true;
  const requested = performance.now();
  return rpc(base, method, params, (data) => {
    if (first) {
      first = false;
      samples.opens.push(performance.now() - requested);
      opened();
    }
    const result = (JSON.parse(data) as { result?: Record<string, unknown> }).result ?? {};
    const update = result.artifactUpdate as { artifact?: { parts?: { text?: string }[] } } | undefined;
    const text = update?.artifact?.parts?.[0]?.text;
    if (text !== undefined) {
      const now = performance.timeOrigin + performance.now();
      const sentAt = chunkSentAt(text);
      const scheduledAt = chunkScheduledAt(text);
      if (sentAt !== undefined) samples.latencies.push(now - sentAt);
      if (scheduledAt !== undefined) samples.lags.push(now - scheduledAt);
    }
    const status = result.statusUpdate as { status?: { state?: string } } | undefined;
    if (status?.status?.state === 'TASK_STATE_COMPLETED') completed = true;
  }).then(
    () => (completed ? 'completed' : 'dropped'),
    (error: { code?: string }) => {
      errors.set(error.code ?? 'error', (errors.get(error.code ?? 'error') ?? 0) + 1);
      return first ? 'refused' : 'dropped';
    },
  );
}

/** Per chunk, ms from its publish (`latencies`) and from its scheduled time (`lags`) to the client; per stream, ms
 * from the request to its first event (`opens`). */
interface Samples {
  latencies: number[];
  lags: number[];
  opens: number[];
}
type StartStream = (i: number, samples: Samples, opened: () => void) => Promise<Outcome>;

/**
 * `n` streams, twice: a timed pass (latency, CPU, outcomes), then a memory pass that samples the server's heap once
 * all are open. Apart because the sample forces two full GCs (~100 ms each with 2 000 streams open), a pause the
 * timed pass would count against every stream in flight.
 */
async function streamsLoad(measured: Server, start: StartStream) {
  const timed = await streamsPass(measured, start, false);
  const sampled = await streamsPass(measured, start, true);
  return {
    ...timed,
    heapPerStreamKB: sampled.heapPerStreamKB,
    rssPerStreamKB: sampled.rssPerStreamKB,
    memoryPass: { opened: sampled.opened, completed: sampled.completed },
  };
}

async function streamsPass(measured: Server, start: StartStream, sampleMemory: boolean) {
  const idle = sampleMemory ? await memory(measured.base) : undefined;
  const cpu0 = await cpuSeconds(measured.child.pid);
  const samples: Samples = { latencies: [], lags: [], opens: [] };
  const { latencies, lags, opens } = samples;
  let open = 0;
  let allOpen: () => void = () => {};
  const everyOpen = new Promise<void>((resolve) => {
    allOpen = resolve;
  });
  const t0 = performance.now();
  const runs: Promise<Outcome>[] = [];
  for (let i = 0; i < streams; i++) {
    runs.push(start(i, samples, () => ++open === streams && allOpen()));
    // Clients arrive spread over max(one chunk interval, 0.5 ms per stream): 2 000 streams open within a second.
    if (i % 50 === 49)
      await new Promise((resolve) => setTimeout(resolve, (Math.max(interval, streams / 2) * 50) / streams));
  }
  // Sampled once every stream is open, or half-way through the streams if some never open.
  let loaded: { heapUsed: number; rss: number } | undefined;
  if (sampleMemory) {
    await Promise.race([everyOpen, new Promise((resolve) => setTimeout(resolve, (chunks * interval) / 2))]);
    loaded = await memory(measured.base);
  }
  const ended = await Promise.all(runs);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (await cpuSeconds(measured.child.pid)) - cpu0;
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  opens.sort((a, b) => a - b);
  return {
    streams,
    chunks,
    intervalMs: interval,
    opened: open,
    completed: ended.filter((o) => o === 'completed').length,
    dropped: ended.filter((o) => o === 'dropped').length,
    refused: ended.filter((o) => o === 'refused').length,
    errors: Object.fromEntries(errors),
    events: latencies.length,
    expectedEvents: streams * chunks,
    latencyMs: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: quantile(latencies, 1) },
    lagMs: { p50: quantile(lags, 0.5), p99: quantile(lags, 0.99), max: quantile(lags, 1) },
    firstEventMs: { p50: quantile(opens, 0.5), p99: quantile(opens, 0.99), max: quantile(opens, 1) },
    heapPerStreamKB: perStreamKB(loaded?.heapUsed, idle?.heapUsed),
    rssPerStreamKB: perStreamKB(loaded?.rss, idle?.rss),
    serverCpuUsPerEvent: latencies.length ? Math.round((cpu / latencies.length) * 1e6) : null,
    seconds: Number(seconds.toFixed(1)),
  };
}

async function main() {
  const durable = process.env.A2A_DATABASE_URL;
  const started: Server[] = [];
  let result: Record<string, unknown>;
  try {
    if (scenario === 'streams') {
      const server = await startServer(basePort);
      started.push(server);
      result = await streamsLoad(server, (_i, samples, opened) =>
        follow(
          server.base,
          'SendStreamingMessage',
          { message: message(`bench-chunks-${chunks}-${interval}`) },
          samples,
          opened,
        ),
      );
    } else if (scenario === 'cross') {
      if (!durable) throw new Error('cross: set A2A_DATABASE_URL (two instances share it)');
      const a = await startServer(basePort, { A2A_INSTANCE_ID: 'a' });
      started.push(a);
      const b = await startServer(basePort + 1, { A2A_INSTANCE_ID: 'b' });
      started.push(b);
      result = await streamsLoad(b, async (_i, samples, opened) => {
        const sent = await rpc(a.base, 'SendMessage', {
          message: message(`bench-chunks-${chunks}-${interval}`),
          configuration: { returnImmediately: true },
        }).catch(() => '{}');
        const id = (JSON.parse(sent) as { result?: { task?: { id: string } } }).result?.task?.id;
        if (!id) return 'refused';
        return follow(b.base, 'SubscribeToTask', { id }, samples, opened);
      });
    } else if (scenario === 'idle') {
      const server = await startServer(basePort);
      started.push(server);
      const idle = await memory(server.base);
      const batch = 64;
      for (let i = 0; i < tasks; i += batch) {
        await Promise.all(
          Array.from({ length: Math.min(batch, tasks - i) }, () =>
            rpc(server.base, 'SendMessage', { message: message(crypto.randomUUID(), 'input-required') }),
          ),
        );
      }
      const loaded = await memory(server.base);
      result = {
        tasks,
        heapPerTaskKB: Number(((loaded.heapUsed - idle.heapUsed) / tasks / 1024).toFixed(2)),
        rssPerTaskKB: Number(((loaded.rss - idle.rss) / tasks / 1024).toFixed(2)),
      };
    } else throw new Error('--scenario must be streams, cross or idle');
  } finally {
    for (const server of started) await stop(server);
    agent.destroy();
  }
  const line = {
    when: new Date().toISOString(),
    machine: `${hostname()}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load ${loadavg()[0]?.toFixed(1)} at the end`,
    scenario,
    adapter,
    store: durable ? 'postgresql' : 'memory',
    ...result,
  };
  console.log(JSON.stringify(line));
  mkdirSync(`${root}bench/results`, { recursive: true });
  appendFileSync(`${root}bench/results/scale.jsonl`, `${JSON.stringify(line)}\n`);
}

await main();
