// `node dist/compat-gc.js --scenario send|stream [--seconds 6] [--port 43150]`: garbage collection per request over
// HTTP, the native echo agent's server against the SDK-style one's through @a2a/sdk-compat (node adapter; each server
// pinned to CPU 0 under `--trace-gc-nvp`, one after the other, a 2 s warm-up, then `--seconds` of closed-loop load with
// 32 connections). Per 1000 requests: scavenges, their pause, the bytes they promoted, mark-compacts. Run it pinned
// (`taskset -c 1 node dist/compat-gc.js ...`) and more than once: the servers are measured in turn, not alternated.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { numberArg, parseArgs } from './args.js';
import { CARD_PATH, JSONRPC_PATH, RAW_PATH } from './bench-a2a.js';
import { closedLoop } from './load.js';
import { type LoadScenario, requestSpecs } from './requests.js';

const args = parseArgs(process.argv.slice(2));
const scenario = (args.scenario ?? 'send') as LoadScenario;
const seconds = numberArg(args, 'seconds', 6);
const port = numberArg(args, 'port', 43150);
const main = fileURLToPath(new URL('./main.js', import.meta.url));
const spec = requestSpecs({ jsonRpc: JSONRPC_PATH, card: CARD_PATH, raw: RAW_PATH }, 10, `compat-gc-${process.pid}`)[
  scenario
];

/** The sum of one `--trace-gc-nvp` field over some lines. */
const sum = (lines: string[], key: string) =>
  lines.reduce((total, line) => total + Number(new RegExp(`\\b${key}=([0-9.]+)`).exec(line)?.[1] ?? 0), 0);

for (const [name, at, extra] of [
  ['native', port, []],
  ['compat', port + 1, ['--executor', 'sdk-compat']],
] as const) {
  const argv = [process.execPath, '--expose-gc', '--trace-gc-nvp', main, '--adapter', 'node', '--port', String(at)];
  const child = spawn('taskset', ['-c', '0', ...argv, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const ready = setInterval(() => {
        if (!out.includes('READY')) return;
        clearInterval(ready);
        resolve();
      }, 50);
      child.once('exit', (code) => {
        clearInterval(ready);
        reject(new Error(`${name} server exited (${code}) before READY`));
      });
    });
    const pool = new Pool(`http://127.0.0.1:${at}`, { connections: 32, pipelining: 1, keepAliveTimeout: 60_000 });
    await closedLoop(pool, spec, { seconds: 2, connections: 32 });
    const mark = out.length;
    const tally = await closedLoop(pool, spec, { seconds, connections: 32 });
    await pool.close();
    const lines = out.slice(mark).split('\n');
    const scavenges = lines.filter((line) => /\bgc=s\b/.test(line));
    const compactions = lines.filter((line) => /\bgc=(mc|mmc)\b/.test(line));
    const per = 1000 / tally.ok;
    console.log(
      `${scenario} ${name}: ${tally.ok} requests; per 1000: scavenges ${(scavenges.length * per).toFixed(2)} ` +
        `(pause ${(sum(scavenges, 'pause') * per).toFixed(2)} ms, promoted ` +
        `${((sum(scavenges, 'promoted') * per) / 1024).toFixed(0)} KB), mark-compacts ` +
        `${(compactions.length * per).toFixed(3)} (pause ${(sum(compactions, 'pause') * per).toFixed(2)} ms)`,
    );
  } finally {
    // (Its port must be free again before the next run of this script.)
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }
}
