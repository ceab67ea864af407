// The servers the compat probes (compat-ab.ts, compat-kernel.ts) measure side by side: main.js with an agent, pinned
// to CPU 0 (the probe runs on CPU 1), and this process's connection pool to it.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

export interface ProbeServer {
  child: ChildProcess;
  pid: number;
  pool: Pool;
}

export interface ProbeServerOptions {
  adapter: string;
  /** Node's own flags before main.js (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** main.js's flags after `--adapter` and `--port` (e.g. `--executor sdk-compat`). */
  extra?: string[];
  env?: NodeJS.ProcessEnv;
  pool: Pool.Options;
}

const main = fileURLToPath(new URL('./main.js', import.meta.url));

/** Starts main.js on `port` and resolves once it prints READY with its pid. */
export async function startProbeServer(port: number, options: ProbeServerOptions): Promise<ProbeServer> {
  const { adapter, nodeArgs = [], extra = [], env = process.env } = options;
  const argv = [process.execPath, '--expose-gc', ...nodeArgs, main, '--adapter', adapter, '--port', String(port)];
  const child = spawn('taskset', ['-c', '0', ...argv, ...extra], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const pid = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = / pid=(\d+)/.exec(out);
      if (out.includes('READY') && ready) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`${adapter} server exited (${code}) before READY: ${out}`)));
  });
  return { child, pid, pool: new Pool(`http://127.0.0.1:${port}`, options.pool) };
}

/** Closes the pools and stops the servers. */
export async function stopProbeServers(servers: Record<string, ProbeServer>): Promise<void> {
  for (const server of Object.values(servers)) {
    await server.pool.close();
    server.child.kill();
  }
}
