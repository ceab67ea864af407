// `node dist/compat-ab.js --adapter node --scenarios send,stream [--slices 10] [--seconds 2] [--port 43120]`: the
// native echo agent and the SDK-style one through @a2a/sdk-compat, each on its own server (CPU 0), measured in
// alternating slices by this process (run it pinned to CPU 1: `taskset -c 1 node dist/compat-ab.js ...`). The
// compat rows of run.ts measure each server in turn, minutes apart; on a shared machine the load moves more than the
// gap between them, so the issue's ≤ 10 % target is read here: median server CPU per request over the slices.
// `--baseline <dir>`: a third server, the SDK-style agent through a copy of an earlier build of @a2a/sdk-compat's
// dist (`cp -r packages/sdk-compat/dist/. packages/sdk-compat/node_modules/.baseline/` with a `{"type":"module"}`
// package.json beside it), in the same rotation: a change to the layer read against the build before it.
// `--profile <dir>`: the servers run under `node --cpu-prof`, their profiles written there when they stop.
import { resolve } from 'node:path';
import { numberArg, parseArgs } from './args.js';
import { CARD_PATH, JSONRPC_PATH, RAW_PATH } from './bench-a2a.js';
import { type ProbeServer, startProbeServer, stopProbeServers } from './compat-servers.js';
import { closedLoop } from './load.js';
import { type LoadScenario, requestSpecs } from './requests.js';
import { median } from './stats.js';

const args = parseArgs(process.argv.slice(2));
const adapter = args.adapter ?? 'node';
const scenarios = (args.scenarios ?? 'send,stream').split(',') as LoadScenario[];
const slices = numberArg(args, 'slices', 10);
const seconds = numberArg(args, 'seconds', 2);
const port = numberArg(args, 'port', 43120);
const connections = numberArg(args, 'connections', 32);
const profile = args.profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(args.profile)] : [];
const baseline = args.baseline ? resolve(args.baseline, 'index.js') : undefined;
const poolOptions = { connections, pipelining: 1, keepAliveTimeout: 60_000 };
const start = (at: number, extra: string[], env = process.env) =>
  startProbeServer(at, { adapter, nodeArgs: profile, extra, env, pool: poolOptions });

const rotate = <T>(items: T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length] as T);

const servers: Record<string, ProbeServer> = {};
try {
  servers.native = await start(port, []);
  servers.compat = await start(port + 1, ['--executor', 'sdk-compat']);
  if (baseline) {
    servers.baseline = await start(port + 2, ['--executor', 'sdk-compat'], {
      ...process.env,
      A2A_BENCH_SDK_COMPAT: baseline,
    });
  }
} catch (error) {
  // (A server that did not start, e.g. its port taken: the ones already started must not outlive this process.)
  await stopProbeServers(servers);
  throw error;
}
const names = Object.keys(servers);
const specs = requestSpecs({ jsonRpc: JSONRPC_PATH, card: CARD_PATH, raw: RAW_PATH }, 10, `compat-ab-${process.pid}`);
try {
  for (const scenario of scenarios) {
    const spec = specs[scenario];
    for (const server of Object.values(servers)) await closedLoop(server.pool, spec, { seconds: 1, connections });
    const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (let i = 0; i < slices; i++) {
      // Two servers alternate; three rotate, so each is measured first, second and last equally often.
      const order = names.length === 2 ? (i % 2 ? [...names].reverse() : names) : rotate(names, i);
      for (const name of order) {
        const { pool, pid } = servers[name] as ProbeServer;
        const tally = await closedLoop(pool, spec, { seconds, connections, serverPid: pid });
        if (tally.failed) throw new Error(`${name} ${scenario}: ${tally.failed} failed answers`);
        cpu[name]?.push((tally.serverCpuSeconds * 1e6) / tally.ok);
      }
    }
    const medians = Object.fromEntries(names.map((name) => [name, median(cpu[name] ?? [])]));
    const of = (name: string) =>
      `${name} ${medians[name]?.toFixed(1)} (${(cpu[name] ?? []).map((v) => v.toFixed(0)).join(' ')})`;
    const slower = (a: string, b: string) =>
      `${a} vs ${b} ${(((medians[a] ?? 0) / (medians[b] ?? 0) - 1) * 100).toFixed(1)} %`;
    const versus = baseline
      ? [slower('compat', 'native'), slower('baseline', 'native'), slower('compat', 'baseline')]
      : [`${(((medians.compat ?? 0) / (medians.native ?? 0) - 1) * 100).toFixed(1)} %`];
    console.log(
      `${adapter} ${scenario}: server CPU µs per request, median of ${slices} slices: ${names.map(of).join(', ')}: ${versus.join(', ')}`,
    );
  }
} finally {
  await stopProbeServers(servers);
}
