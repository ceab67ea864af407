// Scale scenarios (`pnpm --dir apps/bench scale -- --scenario <streams|cross|idle> [options]`), each on fresh bench
// servers (dist/main.js, --expose-gc) driven from this process:
// - streams: `--streams 2000` concurrent SSE streams (SendStreamingMessage, messageId bench-chunks-<chunks>-<interval>,
//   default 100 chunks every 100 ms): delivery latency publish→client p50/p99 (`latencyMs`; `steadyLatencyMs` for
//   the chunks published once every stream was open, after the connection storm) and schedule→client
//   (`lagMs`: adds how late a busy server ran the agent), request→first event (`firstEventMs`), server CPU per event,
//   streams that did not end COMPLETED;
//   then the same load again (streams of ≥ 20 s) for server heap and RSS per open stream (after GC, once all are
//   open, minus the idle server, divided by the streams open then);
// - cross: two instances on one PostgreSQL or Redis (A2A_DATABASE_URL or A2A_REDIS_URL): each task is started on A (returnImmediately)
//   and followed on B (SubscribeToTask); latency publish on A → client of B, under `--streams` such tasks;
// - idle: `--tasks 10000` tasks left INPUT_REQUIRED (text `input-required`): server heap per waiting task.
// `--adapter koa|node|express|hapi|fastify|hono|nestjs|sdk` (default koa; node: @a2a/core/node on plain node:http); the store is PostgreSQL when A2A_DATABASE_URL is set (a fresh
// database on that server per run, dropped at the end), Redis when A2A_REDIS_URL is (a key prefix of the run's own). Prints one
// JSON line (and appends it to bench/results/scale.jsonl at the repo root).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, hostname, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { numberArg, parseArgs } from './args.js';
import { chunkStamps } from './paced-chunks.js';

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
    // Stamps read off the frame's text, no JSON.parse: the client shares the machine's cores with the server under
    // test, so its cost per event shows in every latency (clientCpuUsPerEvent).
    const stamps = chunkStamps(data);
    if (stamps) {
      const now = performance.timeOrigin + performance.now();
      samples.lags.push(now - stamps.scheduled);
      samples.latencies.push(now - stamps.sent);
      if (stamps.sent >= samples.allOpenAt) samples.steady.push(now - stamps.sent);
    } else if (data.includes('"TASK_STATE_COMPLETED"')) completed = true;
  }).then(
    () => (completed ? 'completed' : 'dropped'),
    (error: { code?: string }) => {
      errors.set(error.code ?? 'error', (errors.get(error.code ?? 'error') ?? 0) + 1);
      return first ? 'refused' : 'dropped';
    },
  );
}

/**
 * Per chunk, ms from its publish (`latencies`; `steady`: only chunks published once every stream was open, at
 * `allOpenAt`) and from its scheduled time (`lags`) to the client; per stream, ms from the request to its first event
 * (`opens`).
 */
interface Samples {
  latencies: number[];
  steady: number[];
  lags: number[];
  opens: number[];
  allOpenAt: number;
}
/** Starts stream `i` of `chunkCount` chunks. */
type StartStream = (i: number, chunkCount: number, samples: Samples, opened: () => void) => Promise<Outcome>;

/** Starts a scenario's servers (added to `started`) and says which one is measured and how a stream starts. */
type Setup = () => Promise<{ measured: Server; start: StartStream }>;

/**
 * `n` streams, twice, each pass on freshly started servers: a timed pass (latency, CPU, outcomes), then a memory pass
 * that samples the server's heap and RSS once all are open. Apart because the sample forces two full GCs (~100 ms
 * each with 2 000 streams open), a pause the timed pass would count against every stream in flight; on fresh servers
 * because a process keeps the RSS the timed pass grew (its idle sample then exceeded the loaded one). The memory
 * pass's streams last at least 20 s, so that a slow server's first streams have not ended (and left) before its last
 * ones open: the heap is divided by the streams open at the sample.
 */
async function streamsLoad(setup: Setup, started: Server[]) {
  const timed = await setup();
  const timing = await timedPass(timed.measured, timed.start);
  for (const server of started.splice(0)) await stop(server);
  const sampled = await setup();
  return { ...timing, ...(await memoryPass(sampled.measured, sampled.start)) };
}

/** Opens `streams` streams of `chunkCount` chunks, arriving spread over about a second. */
async function openStreams(start: StartStream, chunkCount: number) {
  const samples: Samples = { latencies: [], steady: [], lags: [], opens: [], allOpenAt: Number.POSITIVE_INFINITY };
  const counts = { open: 0, ended: 0 };
  let allOpen: () => void = () => {};
  const everyOpen = new Promise<void>((resolve) => {
    allOpen = () => {
      samples.allOpenAt = performance.timeOrigin + performance.now();
      resolve();
    };
  });
  const runs: Promise<Outcome>[] = [];
  for (let i = 0; i < streams; i++) {
    const run = start(i, chunkCount, samples, () => ++counts.open === streams && allOpen());
    runs.push(run.finally(() => void counts.ended++));
    // Clients arrive spread over max(one chunk interval, 0.5 ms per stream): 2 000 streams open within a second.
    if (i % 50 === 49)
      await new Promise((resolve) => setTimeout(resolve, (Math.max(interval, streams / 2) * 50) / streams));
  }
  return { samples, counts, everyOpen, runs };
}

async function timedPass(measured: Server, start: StartStream) {
  const cpu0 = await cpuSeconds(measured.child.pid);
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { samples, counts, runs } = await openStreams(start, chunks);
  const ended = await Promise.all(runs);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (await cpuSeconds(measured.child.pid)) - cpu0;
  const clientCpu = process.cpuUsage(clientCpu0);
  const { latencies, steady, lags, opens } = samples;
  const percentiles = (values: number[]) => {
    values.sort((a, b) => a - b);
    return { p50: quantile(values, 0.5), p99: quantile(values, 0.99), max: quantile(values, 1) };
  };
  return {
    streams,
    chunks,
    intervalMs: interval,
    opened: counts.open,
    completed: ended.filter((o) => o === 'completed').length,
    dropped: ended.filter((o) => o === 'dropped').length,
    refused: ended.filter((o) => o === 'refused').length,
    errors: Object.fromEntries(errors),
    events: latencies.length,
    expectedEvents: streams * chunks,
    latencyMs: percentiles(latencies),
    steadyLatencyMs: { events: steady.length, ...percentiles(steady) },
    lagMs: percentiles(lags),
    firstEventMs: percentiles(opens),
    serverCpuUsPerEvent: latencies.length ? Math.round((cpu / latencies.length) * 1e6) : null,
    clientCpuUsPerEvent: latencies.length ? Math.round((clientCpu.user + clientCpu.system) / latencies.length) : null,
    seconds: Number(seconds.toFixed(1)),
  };
}

/** Heap and RSS per open stream, sampled once all are open (or half-way through if some never open). */
async function memoryPass(measured: Server, start: StartStream) {
  const chunkCount = Math.max(chunks, Math.ceil(20_000 / Math.max(interval, 1)));
  // A fresh server: as many short streams first, so the code optimized and the tables grown under this load are in
  // the idle sample, not counted per stream.
  await Promise.all((await openStreams(start, 2)).runs);
  const idle = await memory(measured.base);
  const { counts, everyOpen, runs } = await openStreams(start, chunkCount);
  await Promise.race([everyOpen, new Promise((resolve) => setTimeout(resolve, (chunkCount * interval) / 2))]);
  const openAtSample = counts.open - counts.ended;
  const loaded = await memory(measured.base);
  // The last pass: its streams are left to the servers' shutdown.
  for (const run of runs) run.catch(() => {});
  const perStream = (bytes: number) => (openAtSample ? Number((bytes / openAtSample / 1024).toFixed(1)) : null);
  return {
    heapPerStreamKB: perStream(loaded.heapUsed - idle.heapUsed),
    rssPerStreamKB: perStream(loaded.rss - idle.rss),
    memoryPass: { chunks: chunkCount, openAtSample },
  };
}

/**
 * A fresh database on the server of `url` for this run, dropped at the end: a run does not inherit the rows, dead
 * tuples and autovacuum work of the runs before it.
 */
async function scratchDatabase(url: string) {
  const name = `a2a_scale_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return { url: scratch.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function main() {
  const redisUrl = process.env.A2A_REDIS_URL;
  const durable = process.env.A2A_DATABASE_URL ?? redisUrl;
  const database = process.env.A2A_DATABASE_URL ? await scratchDatabase(process.env.A2A_DATABASE_URL) : undefined;
  // Redis: a key prefix of this run's own on the given server (A2A_REDIS_URL), instead of a scratch database.
  const redisEnv =
    redisUrl && !database ? { A2A_REDIS_URL: redisUrl, A2A_REDIS_PREFIX: `a2a-scale-${Date.now()}` } : {};
  const env = database ? { A2A_DATABASE_URL: database.url } : redisEnv;
  const started: Server[] = [];
  let result: Record<string, unknown>;
  try {
    if (scenario === 'streams') {
      result = await streamsLoad(async () => {
        const server = await startServer(basePort, env);
        started.push(server);
        const start: StartStream = (_i, count, samples, opened) =>
          follow(
            server.base,
            'SendStreamingMessage',
            { message: message(`bench-chunks-${count}-${interval}`) },
            samples,
            opened,
          );
        return { measured: server, start };
      }, started);
    } else if (scenario === 'cross') {
      if (!durable) throw new Error('cross: set A2A_DATABASE_URL or A2A_REDIS_URL (two instances share it)');
      result = await streamsLoad(async () => {
        const a = await startServer(basePort, { ...env, A2A_INSTANCE_ID: 'a' });
        started.push(a);
        const b = await startServer(basePort + 1, { ...env, A2A_INSTANCE_ID: 'b' });
        started.push(b);
        const start: StartStream = async (_i, count, samples, opened) => {
          const sent = await rpc(a.base, 'SendMessage', {
            message: message(`bench-chunks-${count}-${interval}`),
            configuration: { returnImmediately: true },
          }).catch(() => '{}');
          const id = (JSON.parse(sent) as { result?: { task?: { id: string } } }).result?.task?.id;
          if (!id) return 'refused';
          return follow(b.base, 'SubscribeToTask', { id }, samples, opened);
        };
        return { measured: b, start };
      }, started);
    } else if (scenario === 'idle') {
      const server = await startServer(basePort, env);
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
    await database?.drop();
  }
  const line = {
    when: new Date().toISOString(),
    machine: `${hostname()}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load ${loadavg()[0]?.toFixed(1)} at the end`,
    scenario,
    adapter,
    store: database ? 'postgresql' : redisUrl ? 'redis' : 'memory',
    ...result,
  };
  console.log(JSON.stringify(line));
  mkdirSync(`${root}bench/results`, { recursive: true });
  appendFileSync(`${root}bench/results/scale.jsonl`, `${JSON.stringify(line)}\n`);
}

await main();
