// `node dist/compat-ab.js --adapter node --scenarios send,stream [--slices 10] [--seconds 2] [--port 43120]`: the
// native echo agent and the SDK-style one through @a2a/sdk-compat, each on its own server (CPU 0), measured in
// alternating slices by this process (run it pinned to CPU 1: `taskset -c 1 node dist/compat-ab.js ...`). The
// compat rows of run.ts measure each server in turn, minutes apart; on a shared machine the load moves more than the
// gap between them, so the issue's ≤ 10 % target is read here: median server CPU per request over the slices.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { numberArg, parseArgs } from './args.js';
import { CARD_PATH, JSONRPC_PATH, RAW_PATH } from './bench-a2a.js';
import { closedLoop } from './load.js';
import { type LoadScenario, requestSpecs } from './requests.js';

const args = parseArgs(process.argv.slice(2));
const adapter = args.adapter ?? 'node';
const scenarios = (args.scenarios ?? 'send,stream').split(',') as LoadScenario[];
const slices = numberArg(args, 'slices', 10);
const seconds = numberArg(args, 'seconds', 2);
const port = numberArg(args, 'port', 43120);
const connections = numberArg(args, 'connections', 32);
const main = fileURLToPath(new URL('./main.js', import.meta.url));

async function start(at: number, extra: string[]): Promise<{ child: ChildProcess; pid: number; pool: Pool }> {
  const argv = [process.execPath, '--expose-gc', main, '--adapter', adapter, '--port', String(at), ...extra];
  const child = spawn('taskset', ['-c', '0', ...argv], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = / pid=(\d+)/.exec(out);
      if (out.includes('READY') && ready) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`${adapter} server exited (${code}) before READY: ${out}`)));
  });
  const pool = new Pool(`http://127.0.0.1:${at}`, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  return { child, pid, pool };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

const servers = { native: await start(port, []), compat: await start(port + 1, ['--executor', 'sdk-compat']) };
const specs = requestSpecs({ jsonRpc: JSONRPC_PATH, card: CARD_PATH, raw: RAW_PATH }, 10, `compat-ab-${process.pid}`);
try {
  for (const scenario of scenarios) {
    const spec = specs[scenario];
    for (const server of Object.values(servers)) await closedLoop(server.pool, spec, { seconds: 1, connections });
    const cpu: Record<keyof typeof servers, number[]> = { native: [], compat: [] };
    for (let i = 0; i < slices; i++) {
      for (const name of i % 2 ? (['compat', 'native'] as const) : (['native', 'compat'] as const)) {
        const { pool, pid } = servers[name];
        const tally = await closedLoop(pool, spec, { seconds, connections, serverPid: pid });
        if (tally.failed) throw new Error(`${name} ${scenario}: ${tally.failed} failed answers`);
        cpu[name].push((tally.serverCpuSeconds * 1e6) / tally.ok);
      }
    }
    const [native, compat] = [median(cpu.native), median(cpu.compat)];
    const slicesOf = (name: keyof typeof servers) => cpu[name].map((v) => v.toFixed(0)).join(' ');
    console.log(
      `${adapter} ${scenario}: server CPU µs per request, median of ${slices} slices: native ${native.toFixed(1)} ` +
        `(${slicesOf('native')}), compat ${compat.toFixed(1)} (${slicesOf('compat')}): ${((compat / native - 1) * 100).toFixed(1)} %`,
    );
  }
} finally {
  for (const server of Object.values(servers)) {
    await server.pool.close();
    server.child.kill();
  }
}
