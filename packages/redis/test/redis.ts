import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real Redis servers for the tests, never a mock. `A2A_TEST_REDIS_URL` (set by `.ci/run` through
 * scripts/start-redis.sh) is the shared server; tests that stop, kill or restart their server start their own
 * `redis-server` (or `valkey-server`) on 127.0.0.1, ports 26380–26399, data in a temp dir. Under CI both must be
 * there: a missing one fails loudly. Elsewhere the tests are skipped with a visible message.
 */
export const sharedUrl = process.env.A2A_TEST_REDIS_URL;

function findServer(): string | undefined {
  if (process.env.A2A_REDIS_SERVER) return process.env.A2A_REDIS_SERVER;
  for (const candidate of ['/usr/bin/redis-server', '/usr/bin/valkey-server', '/usr/local/bin/redis-server']) {
    if (existsSync(candidate)) return candidate;
  }
  try {
    return (
      execFileSync('sh', ['-c', 'command -v redis-server || command -v valkey-server'], { encoding: 'utf8' }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

export const serverBinary = findServer();
if (!serverBinary || !sharedUrl) {
  const missing = [!sharedUrl && 'A2A_TEST_REDIS_URL', !serverBinary && 'a redis-server binary'].filter(Boolean);
  if (process.env.CI === 'true') {
    throw new Error(`${missing.join(' and ')} missing under CI: scripts/start-redis.sh installs and starts Redis`);
  }
  console.warn(`[@a2a/redis] SKIPPING some Redis tests: no ${missing.join(', no ')} (scripts/start-redis.sh)`);
}
export const hasServerBinary = serverBinary !== undefined;
/** A server to run store tests on: the shared one, or one of our own. */
export const hasRedis = sharedUrl !== undefined || hasServerBinary;

/** A fresh key prefix: tests on the shared server never see each other's keys. */
export const freshPrefix = (name = 't') => `a2a-test-${name}-${randomBytes(5).toString('hex')}`;

export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  /** SIGKILL (a crash: nothing flushed beyond what the fsync policy wrote) or SIGTERM (a clean shutdown). */
  stop(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

export interface RedisServerOptions {
  /** `appendonly yes` with this fsync policy; absent: no persistence at all. */
  appendfsync?: 'always' | 'everysec' | 'no';
  /** `cluster-enabled yes` (a lone Cluster node: enough for the start-up check). */
  cluster?: boolean;
}

// Below Linux's ephemeral range (32768–60999): while a crash test's server is down, no outgoing connection or
// `listen(0)` of a parallel test can take its port and make the restart fail.
const FIRST_PORT = 26380;
const LAST_PORT = 26399;
const RESERVATIONS = join(tmpdir(), 'a2a-redis-test-ports');

/**
 * Claims a port for one server for its whole life, stopped spells included: test files run in parallel processes,
 * and a port freed by a crash test's SIGKILL must not be taken by another file's server, or the restart finds it
 * busy (or the store reconnects to a stranger). A claim whose process is gone is stale and taken over.
 */
function reserve(port: number): boolean {
  mkdirSync(RESERVATIONS, { recursive: true });
  const file = join(RESERVATIONS, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8'));
      if (owner && isAlive(owner)) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const release = (port: number) => rmSync(join(RESERVATIONS, String(port)), { force: true });

/** Starts a redis-server of this test's own on a free, unclaimed port of 26380–26399 (`reserve`). */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (!serverBinary) throw new Error('no redis-server binary');
  const binary = serverBinary;
  const dir = mkdtempSync(join(tmpdir(), 'a2a-redis-'));
  const args = (port: number) => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.appendfsync ? 'yes' : 'no',
    ...(options.appendfsync ? ['--appendfsync', options.appendfsync] : []),
    '--daemonize',
    'no',
    '--protected-mode',
    'no',
    '--loglevel',
    'warning',
    // A lone node knows no address of its own (CLUSTER SLOTS would name host ""): it announces the one it is bound to.
    ...(options.cluster ? ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`)] : []),
    ...(options.cluster ? ['--cluster-announce-ip', '127.0.0.1'] : []),
  ];
  let child: ChildProcess | undefined;
  let port = 0;
  const launch = async (on: number): Promise<boolean> => {
    const proc = spawn(binary, args(on), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    proc.stdout?.on('data', (d) => {
      output += d;
    });
    proc.stderr?.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        await exited;
        if (/Address already in use|bind/i.test(output)) return false;
        throw new Error(`redis-server exited: ${output}`);
      }
      if (await answers(on)) {
        child = proc;
        return true;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    proc.kill('SIGKILL');
    throw new Error(`redis-server did not start on ${on}: ${output}`);
  };
  let candidate = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT + 1));
  for (let tries = 0; port === 0; tries++) {
    if (tries > 2 * (LAST_PORT - FIRST_PORT + 1)) throw new Error('no free port in 26380-26399');
    if (reserve(candidate)) {
      try {
        if (!(await answers(candidate)) && (await launch(candidate))) port = candidate;
      } finally {
        if (port === 0) release(candidate);
      }
    }
    if (port === 0) candidate = candidate >= LAST_PORT ? FIRST_PORT : candidate + 1;
  }
  const stop = async (signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL') => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill(signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop,
    start: async () => {
      for (let tries = 0; tries < 50; tries++) {
        if (await launch(port)) return;
        await new Promise((r) => setTimeout(r, 100)); // the port is still being released
      }
      throw new Error(`could not restart redis-server on ${port}`);
    },
    destroy: async () => {
      await stop('SIGKILL');
      release(port);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether something answers PING with +PONG on the port. */
async function answers(port: number): Promise<boolean> {
  const { createConnection } = await import('node:net');
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      data += d;
      if (data.includes('\r\n')) done(data.startsWith('+PONG') || data.startsWith('-'));
    });
  });
}

/** The shared server, or (without one) a server of this file's own; `release()` stops the latter. */
export async function testRedisUrl(): Promise<{ url: string; release(): Promise<void> }> {
  if (sharedUrl) return { url: sharedUrl, release: async () => {} };
  const server = await startRedisServer();
  return { url: server.url, release: () => server.destroy() };
}

let nextDatabase = 0;

/**
 * A numbered database (1–15) of the shared server, emptied, for a program that uses the default key prefix (the
 * README example run by apps/readme-check); `release()` empties it again.
 */
export async function freshRedisDatabase(): Promise<{ url: string; release(): Promise<void> }> {
  if (!sharedUrl) throw new Error('no A2A_TEST_REDIS_URL');
  const url = new URL(sharedUrl);
  url.pathname = `/${1 + (nextDatabase++ % 15)}`;
  const { Redis } = await import('ioredis');
  const flush = async () => {
    const client = new Redis(url.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      await client.flushdb();
    } finally {
      client.disconnect();
    }
  };
  await flush();
  return { url: url.toString(), release: flush };
}

/** The tasks (hashes `a2a:{t:<id>}`) in the database of `url`. */
export async function countRedisTasks(url: string, prefix = 'a2a'): Promise<number> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let n = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:{t:*}`, 'COUNT', 1000, 'TYPE', 'hash');
      cursor = next;
      n += keys.length;
    } while (cursor !== '0');
    return n;
  } finally {
    client.disconnect();
  }
}
