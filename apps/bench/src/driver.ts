// Load driver, a separate process from the server: `node dist/driver.js --base-url http://127.0.0.1:PORT
// --mode <load|growth|retained|longstream> [--scenario card|send|stream|compat] [--server-pid PID] ...`.
// Prints one JSON result on stdout. Loopback targets only.
import { Pool } from 'undici';
import { numberArg, parseArgs } from './args.js';
import { CARD_PATH, JSONRPC_PATH, MEM_PATH, RAW_PATH } from './bench-a2a.js';
import { grpcClosedLoop, grpcSender } from './grpc-load.js';
import { closedLoop, newTally, percentile, type Summary, summarize } from './load.js';
import { checkAnswer, type LoadScenario, type RequestSpec, requestSpecs } from './requests.js';

const args = parseArgs(process.argv.slice(2));
const base = new URL(args['base-url'] ?? 'http://127.0.0.1:41377');
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname))
  throw new Error(`refusing non-loopback target ${base}`);
const origin = base.origin;
const serverPid = args['server-pid'] ? Number(args['server-pid']) : undefined;
const connections = numberArg(args, 'connections', 32);
const streamEvents = numberArg(args, 'stream-events', 10);
const specs = requestSpecs(
  { jsonRpc: JSONRPC_PATH, card: CARD_PATH, raw: RAW_PATH },
  streamEvents,
  `bench-${process.pid}`,
);
const counter = { n: 0 };
const newPool = () => new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });

async function once(spec: RequestSpec): Promise<{ status: number; text: string }> {
  const response = await fetch(`${origin}${spec.path}`, {
    method: spec.method,
    headers: spec.headers,
    ...(spec.body ? { body: spec.body(++counter.n) } : {}),
  });
  return { status: response.status, text: await response.text() };
}

async function probe(scenario: LoadScenario): Promise<string | undefined> {
  const { status, text } = await once(specs[scenario]);
  try {
    return checkAnswer(scenario, status, text, streamEvents);
  } catch (error) {
    return `unreadable answer (${String(error)}): ${text.slice(0, 200)}`;
  }
}

/**
 * The scenario and the raw reference in alternating slices, so each ratio uses a baseline taken at the same time.
 * `grpc-send`: the `send` request over @a2a/grpc (`--grpc-address`), against the same raw HTTP reference.
 */
async function load(scenario: LoadScenario | 'grpc-send') {
  const grpcAddress = args['grpc-address'];
  if (scenario === 'grpc-send' && !grpcAddress) return { scenario, skipped: 'no gRPC listener on this server' };
  const sender = scenario === 'grpc-send' && grpcAddress ? grpcSender(grpcAddress) : undefined;
  const problem = sender
    ? (await sender.send(0))
      ? undefined
      : 'gRPC SendMessage did not answer a COMPLETED task'
    : ((await probe(scenario as LoadScenario)) ?? (await probe('raw')));
  if (problem) return { scenario, skipped: problem };
  const run = (spec: RequestSpec | 'grpc', seconds: number, tally: ReturnType<typeof newTally>) =>
    spec === 'grpc' && sender
      ? grpcClosedLoop(sender, { connections, serverPid, seconds }, tally, counter)
      : closedLoop(pool, spec as RequestSpec, { connections, serverPid, seconds }, tally, counter);
  const measuredSpec = sender ? ('grpc' as const) : specs[scenario as LoadScenario];
  const duration = numberArg(args, 'duration', 4);
  const warmup = numberArg(args, 'warmup', 1);
  const slices = Math.max(1, numberArg(args, 'slices', 4));
  const pool = newPool();
  const limits = { connections, serverPid };
  if (warmup > 0) {
    await closedLoop(pool, specs.raw, { ...limits, seconds: warmup / 2 }, newTally(), counter);
    await run(measuredSpec, warmup / 2, newTally());
  }
  const raw = newTally();
  const measured = newTally();
  const sliceRatios: number[] = [];
  for (let i = 0; i < slices; i++) {
    // Alternate which side goes first so neither always follows the other's GC debt.
    const order = args.unpaired ? [measured] : i % 2 === 0 ? [raw, measured] : [measured, raw];
    const before = {
      rawOk: raw.ok,
      rawSeconds: raw.seconds,
      ok: measured.ok,
      seconds: measured.seconds,
    };
    for (const tally of order) await run(tally === raw ? specs.raw : measuredSpec, duration / slices, tally);
    const sliceRps = (measured.ok - before.ok) / (measured.seconds - before.seconds);
    sliceRatios.push(sliceRps / ((raw.ok - before.rawOk) / (raw.seconds - before.rawSeconds)));
  }
  await pool.close();
  sender?.close();
  const result: Summary = summarize(measured);
  const reference: Summary = summarize(raw);
  return {
    scenario,
    result,
    raw: reference,
    xRaw: result.rps / reference.rps,
    sliceRatios,
  };
}

async function mem(gc = true): Promise<{ heapMB: number; rssMB: number }> {
  const response = await fetch(`${origin}${MEM_PATH}${gc ? '?gc=1' : ''}`);
  const figures = (await response.json()) as { heapUsed: number; rss: number };
  return { heapMB: figures.heapUsed / 2 ** 20, rssMB: figures.rss / 2 ** 20 };
}

/** Sends `amount` SendMessage requests (completed tasks) at full speed. */
async function fill(amount: number): Promise<number> {
  const pool = newPool();
  const tally = await closedLoop(pool, specs.send, { connections, amount }, newTally(), counter);
  await pool.close();
  return tally.failed;
}

/** Heap and RSS after N completed tasks with the server's default store limits, sampled along the way. */
async function growth() {
  const tasks = numberArg(args, 'tasks', 100_000);
  const steps = numberArg(args, 'steps', 4);
  const points = [{ tasks: 0, ...(await mem()) }];
  let failed = 0;
  for (let i = 1; i <= steps; i++) {
    failed += await fill(Math.round(tasks / steps));
    points.push({ tasks: Math.round((tasks * i) / steps), ...(await mem()) });
  }
  return { mode: 'growth', tasks, failed, points };
}

/** Sequential calls over one keep-alive connection; `pageSize` 0 times a GET of the card (the round-trip floor). */
async function listLatency(pageSize: number, calls: number) {
  const pool = new Pool(origin, {
    connections: 1,
    pipelining: 1,
    keepAliveTimeout: 60_000,
  });
  const latencies: number[] = [];
  let totalSize = 0;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'ListTasks',
    params: { pageSize },
  });
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const response =
      pageSize === 0
        ? await pool.request({ method: 'GET', path: CARD_PATH })
        : await pool.request({
            method: 'POST',
            path: JSONRPC_PATH,
            headers: specs.send.headers,
            body,
          });
    const json = (await response.body.json()) as {
      result?: { totalSize?: number };
    };
    latencies.push(performance.now() - t0);
    totalSize = json.result?.totalSize ?? -1;
  }
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    pageSize,
    totalSize,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Heap per retained task (server started with a cap above N) and ListTasks latency with N tasks stored. */
async function retained() {
  const tasks = numberArg(args, 'tasks', 50_000);
  await fill(200); // warm the code paths before the first sample
  const before = await mem();
  const failed = await fill(tasks);
  const after = await mem();
  const calls = numberArg(args, 'list-calls', 200);
  // A warm-up pass, then the measured ones.
  await listLatency(1, 20);
  const list = [await listLatency(1, calls), await listLatency(50, calls), await listLatency(0, calls)];
  return {
    mode: 'retained',
    tasks,
    failed,
    heapPerTaskBytes: ((after.heapMB - before.heapMB) * 2 ** 20) / tasks,
    rssPerTaskBytes: ((after.rssMB - before.rssMB) * 2 ** 20) / tasks,
    list,
  };
}

/** Wall time of one SendStreamingMessage with N events, to its last byte (median of 3, over one keep-alive connection). */
async function longStream() {
  const events = numberArg(args, 'events', 4000);
  const paths = { jsonRpc: JSONRPC_PATH, card: CARD_PATH, raw: RAW_PATH };
  const spec = requestSpecs(paths, events, `long-${process.pid}`).stream;
  const pool = new Pool(origin, {
    connections: 1,
    pipelining: 1,
    keepAliveTimeout: 60_000,
  });
  const warm = requestSpecs(paths, 50, 'warm').stream;
  await closedLoop(pool, warm, { connections: 1, amount: 20 }, newTally(), counter);
  const times: number[] = [];
  let received = 0;
  for (let i = 0; i < 3; i++) {
    const tally = newTally();
    const t0 = performance.now();
    await closedLoop(pool, spec, { connections: 1, amount: 1 }, tally, counter);
    times.push((performance.now() - t0) / 1000);
    received = tally.events;
  }
  await pool.close();
  times.sort((a, b) => a - b);
  return {
    mode: 'longstream',
    events,
    received,
    ok: received === events,
    seconds: times[1],
    runs: times,
  };
}

const mode = args.mode ?? 'load';
const result =
  mode === 'growth'
    ? await growth()
    : mode === 'retained'
      ? await retained()
      : mode === 'longstream'
        ? await longStream()
        : await load((args.scenario ?? 'send') as LoadScenario | 'grpc-send');
process.stdout.write(`${JSON.stringify(result)}\n`);
