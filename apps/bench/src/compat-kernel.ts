// `node dist/compat-kernel.js [--scenario send] [--slices 10] [--seconds 2] [--port 43130]`: where the HTTP-only part
// of sdk-compat's SendMessage gap goes, user against kernel time. The native echo agent's server and the SDK-style
// one's through @a2a/sdk-compat (node adapter, each pinned to CPU 0), measured in alternating slices of closed-loop
// load from this process (run it pinned: `taskset -c 1 node ...`). Per request, median over the slices: the server's
// user and system CPU (/proc ticks), its minor page faults, how often its main thread and this client blocked (voluntary context switches:
// a block is a wake-up the other side pays for in its socket write). docs/performance.md, "SDK executors through
// @a2a/sdk-compat", seventh round.
import { readFileSync } from 'node:fs';
import { numberArg, parseArgs } from './args.js';
import { CARD_PATH, JSONRPC_PATH, RAW_PATH } from './bench-a2a.js';
import { type ProbeServer, startProbeServer, stopProbeServers } from './compat-servers.js';
import { closedLoop } from './load.js';
import { type LoadScenario, requestSpecs } from './requests.js';
import { median } from './stats.js';

const args = parseArgs(process.argv.slice(2));
const scenario = (args.scenario ?? 'send') as LoadScenario;
const slices = numberArg(args, 'slices', 10);
const seconds = numberArg(args, 'seconds', 2);
const port = numberArg(args, 'port', 43130);
const connections = numberArg(args, 'connections', 32);
const spec = requestSpecs(
  { jsonRpc: JSONRPC_PATH, card: CARD_PATH, raw: RAW_PATH },
  10,
  `compat-kernel-${process.pid}`,
)[scenario];

/** A process's user and system time (µs, from ticks), minor page faults, its main thread's voluntary context switches. */
function counters(pid: number): { user: number; system: number; faults: number; blocks: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const blocks = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1]);
  return { user: Number(fields[11]) * 1e4, system: Number(fields[12]) * 1e4, faults: Number(fields[7]), blocks };
}

const poolOptions = { connections, pipelining: 1 };
const servers: Record<string, ProbeServer> = {};
try {
  servers.native = await startProbeServer(port, { adapter: 'node', pool: poolOptions });
  servers.compat = await startProbeServer(port + 1, {
    adapter: 'node',
    extra: ['--executor', 'sdk-compat'],
    pool: poolOptions,
  });
  const names = Object.keys(servers);
  const figures: Record<string, Record<string, number[]>> = {};
  for (const server of Object.values(servers)) await closedLoop(server.pool, spec, { seconds: 1, connections });
  for (let i = 0; i < slices; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) {
      const { pool, pid } = servers[name] as ProbeServer;
      const before = counters(pid);
      const client = process.resourceUsage().voluntaryContextSwitches;
      const tally = await closedLoop(pool, spec, { seconds, connections });
      const after = counters(pid);
      if (tally.failed) throw new Error(`${name}: ${tally.failed} failed answers`);
      const per = (value: number) => value / tally.ok;
      figures[name] ??= {};
      const row = figures[name];
      for (const [key, value] of [
        ['user µs', per(after.user - before.user)],
        ['system µs', per(after.system - before.system)],
        ['page faults', per(after.faults - before.faults)],
        ['server blocks', per(after.blocks - before.blocks)],
        ['client blocks', per(process.resourceUsage().voluntaryContextSwitches - client)],
        ['wall µs', per(tally.seconds * 1e6)],
      ] as const) {
        row[key] ??= [];
        row[key].push(value);
      }
    }
  }
  for (const name of names) {
    const row = figures[name] ?? {};
    const cells = Object.entries(row).map(
      ([key, values]) => `${key} ${median(values).toFixed(key.endsWith('µs') ? 1 : 3)}`,
    );
    console.log(`${scenario} ${name}, per request, median of ${slices} slices: ${cells.join(', ')}`);
  }
} finally {
  await stopProbeServers(servers);
}
