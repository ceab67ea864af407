// `pnpm bench`: every adapter and the official SDK, each scenario on a fresh server process (pinned to CPU 0 when
// there are 2+ CPUs) measured by a driver process (CPU 1); then the memory scenarios. Writes
// bench/results/<date>-<machine>.md at the repo root and prints it. Durations: see `options` below (flags or BENCH_*).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { numberArg, parseArgs } from './args.js';
import { type Report, renderReport } from './report.js';

const args = parseArgs(process.argv.slice(2));
const list = (name: string, fallback: string) =>
  (args[name] ?? process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback)
    .split(',')
    .filter(Boolean);
const options = {
  adapters: list('adapters', 'node,node+compat,express,koa,hapi,fastify,hono,hono-bun,hono-deno,nestjs,sdk'),
  scenarios: list('scenarios', 'card,send,stream,compat,grpc-send'),
  memoryAdapters: list('memory-adapters', 'express'),
  duration: numberArg(args, 'duration', 3),
  warmup: numberArg(args, 'warmup', 1),
  slices: numberArg(args, 'slices', 4),
  connections: numberArg(args, 'connections', 32),
  growth: numberArg(args, 'growth', 100_000),
  retained: numberArg(args, 'retained', 50_000),
  longEvents: numberArg(args, 'long-events', 4000),
  port: numberArg(args, 'port', 41400),
};

const dist = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const pinned = cpus().length >= 2 && hasTaskset();

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
}

function node(cpu: number, script: string, scriptArgs: string[], expose = false): ChildProcess {
  const nodeArgs = [...(expose ? ['--expose-gc'] : []), `${dist}${script}`, ...scriptArgs];
  return pinned
    ? spawn('taskset', ['-c', String(cpu), process.execPath, ...nodeArgs], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, nodeArgs, {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
}

/**
 * Hono on the Fetch-native runtimes (servers/hono-fetch.ts), with the binaries the tests use (`A2A_TEST_BUN`,
 * `A2A_TEST_DENO`; default: the ones `.ci/run` fetches into `.ci/.cache`).
 */
const FETCH_HOSTS: Record<string, { bin: string; args: string[] }> = {
  'hono-bun': { bin: process.env.A2A_TEST_BUN ?? `${root}.ci/.cache/bun/bun`, args: ['run'] },
  'hono-deno': {
    bin: process.env.A2A_TEST_DENO ?? `${root}.ci/.cache/deno/deno`,
    args: ['run', '--allow-net', '--allow-env', '--allow-read', '--node-modules-dir=manual'],
  },
};

/** Why an adapter's rows cannot be measured here (a runtime binary missing), or `undefined`. */
function unavailable(adapter: string): string | undefined {
  const host = FETCH_HOSTS[adapter];
  if (host && !existsSync(host.bin))
    return `no ${adapter.slice(5)} binary at ${host.bin} (A2A_TEST_${adapter.slice(5).toUpperCase()})`;
  return undefined;
}

function spawnServer(adapter: string, extra: string[]): ChildProcess {
  const host = FETCH_HOSTS[adapter];
  if (host) {
    const command = [host.bin, ...host.args, `${dist}servers/hono-fetch.js`, '--port', String(options.port)];
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    return pinned
      ? spawn('taskset', ['-c', '0', ...command], { cwd, stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn(command[0] as string, command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  }
  // `express+otel`: the same adapter with the OpenTelemetry SDK registered (no-op exporters), for its overhead.
  // `node+compat`: the same adapter serving the SDK-style echo agent through @a2a/sdk-compat (report: × native).
  const [name, ...variants] = adapter.split('+');
  const flags = variants.flatMap((v) =>
    v === 'otel' ? ['--otel', 'noop'] : v === 'compat' ? ['--executor', 'sdk-compat'] : [],
  );
  return node(0, 'main.js', ['--adapter', name ?? adapter, '--port', String(options.port), ...flags, ...extra], true);
}

async function startServer(
  adapter: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; pid: number; grpc?: string | undefined }> {
  const child = spawnServer(adapter, extra);
  let grpc: string | undefined;
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      grpc ??= / grpc=(\S+)/.exec(out)?.[1];
      if (out.includes('READY')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${adapter} server exited (${code}) before READY: ${out}`)));
  });
  return { child, pid: child.pid as number, grpc };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** The server's own pid (with taskset it is the same process: taskset execs node). */
async function drive(serverPid: number, driverArgs: string[]): Promise<Record<string, unknown>> {
  const child = node(1, 'driver.js', [
    '--base-url',
    `http://127.0.0.1:${options.port}`,
    '--server-pid',
    String(serverPid),
    '--connections',
    String(options.connections),
    ...driverArgs,
  ]);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) return { error: `driver exited with ${code}` };
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

async function withServer(adapter: string, extra: string[], driverArgs: string[]) {
  const { child, pid, grpc } = await startServer(adapter, extra);
  try {
    return await drive(pid, grpc ? [...driverArgs, '--grpc-address', grpc] : driverArgs);
  } finally {
    await stopServer(child);
  }
}

const report: Report = {
  when: new Date().toISOString(),
  machine: `${hostname()}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}${pinned ? ', server on CPU 0, driver on CPU 1' : ', not pinned'}`,
  options,
  load: [],
  memory: [],
};
const timing = [
  '--duration',
  String(options.duration),
  '--warmup',
  String(options.warmup),
  '--slices',
  String(options.slices),
];
for (const adapter of options.adapters) {
  for (const scenario of options.scenarios) {
    process.stderr.write(`[bench] ${adapter} ${scenario}\n`);
    const skipped = unavailable(adapter);
    if (skipped) {
      report.load.push({ adapter, scenario, skipped });
      continue;
    }
    report.load.push({
      adapter,
      ...(await withServer(adapter, scenario === 'grpc-send' ? ['--grpc-port', String(options.port + 1)] : [], [
        '--scenario',
        scenario,
        ...timing,
      ])),
    });
  }
}
for (const adapter of options.memoryAdapters) {
  process.stderr.write(`[bench] ${adapter} memory\n`);
  const growth = options.growth
    ? await withServer(adapter, [], ['--mode', 'growth', '--tasks', String(options.growth)])
    : undefined;
  const retained = options.retained
    ? await withServer(
        adapter,
        ['--max-tasks', String(options.retained + 10_000)],
        ['--mode', 'retained', '--tasks', String(options.retained)],
      )
    : undefined;
  const long = options.longEvents
    ? await withServer(adapter, [], ['--mode', 'longstream', '--events', String(options.longEvents)])
    : undefined;
  report.memory.push({ adapter, growth, retained, long });
}

const markdown = renderReport(report);
const dir = `${root}bench/results`;
mkdirSync(dir, { recursive: true });
const file = `${dir}/${report.when.slice(0, 10)}-${hostname().replace(/[^\w.-]+/g, '_')}.md`;
writeFileSync(file, markdown);
writeFileSync(file.replace(/\.md$/, '.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${markdown}\n(written to ${file})\n`);
