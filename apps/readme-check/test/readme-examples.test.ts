import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, hasDatabase } from '../../../packages/postgres/test/db.js';
import { countRedisTasks, freshRedisDatabase, sharedUrl as redisUrl } from '../../../packages/redis/test/redis.js';
import { packPackages, publishedPackages, ROOT } from '../../../scripts/pack-packages.mjs';
import { driveLetterWriter, driveLetterWriterOverGrpc } from '../src/drive.js';
import { type Block, clientsOf, type Program, programsOf, readmePaths, scanReadme } from '../src/examples.js';
import {
  type CompileResult,
  clientIn,
  compileProject,
  installProject,
  isTestProject,
  PROJECTS,
  runsIn,
  runsInVariant,
  type Tarball,
  VARIANTS,
} from '../src/projects.js';

// The executable README (issue 16 item 4): every published package is packed, the tarballs are installed with npm into
// a fresh project per framework version, the READMEs' marked examples are written there verbatim, compiled with tsc
// (strict) and run, as ES modules and (in each project's CommonJS twin) as CommonJS, and each running example is
// driven with the official client (@a2a-js/sdk): over JSON-RPC and HTTP+JSON, or over gRPC for a program that imports
// @a2a/grpc. A program that imports @a2a/postgres runs against a fresh database on A2A_TEST_DATABASE_URL (skipped
// without one, outside CI). The marking convention is in docs/readme-examples.md.
// Needs the npm registry (the frameworks; npm's cache keeps repeats fast).

interface Published {
  name: string;
  dir: string;
  a2aDeps: string[];
  /** Peer dependencies outside @a2a (name → range): installed when a program imports them (installProject). */
  peers: Record<string, string>;
}

/** The published packages (scripts/pack-packages.mjs decides which) and the @a2a packages each one needs. */
async function published(): Promise<Published[]> {
  const out: Published[] = [];
  for (const entry of publishedPackages()) {
    const dir = join(ROOT, 'packages', entry);
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const deps = { ...pkg.dependencies, ...pkg.peerDependencies };
    const peers = Object.fromEntries(
      Object.entries((pkg.peerDependencies ?? {}) as Record<string, string>).filter(([d]) => !d.startsWith('@a2a/')),
    );
    out.push({ name: pkg.name, dir, a2aDeps: Object.keys(deps).filter((d) => d.startsWith('@a2a/')), peers });
  }
  return out;
}

const packages = await published();
const scans = readmePaths(
  ROOT,
  packages.map((p) => p.dir),
).map((path) => scanReadme(ROOT, path));
const programs = programsOf(scans.flatMap((s) => s.blocks));
const clients = clientsOf(scans.flatMap((s) => s.blocks));

/**
 * `A2A_README_PROJECTS=express5,fastify` installs, compiles and runs only those projects (names or families; a
 * project's CommonJS twin comes with it): a quicker run while working on one README. Unset: all of them.
 */
const only = process.env.A2A_README_PROJECTS?.split(',').filter(Boolean);
const variants = only?.length
  ? VARIANTS.filter((v) => only.includes(v.project.name) || only.includes(v.project.family) || only.includes(v.name))
  : VARIANTS;

let work: string;
const prepared = new Map<string, Promise<CompileResult>>();
// tsc is CPU-bound: one per core at a time (all at once made load 17 on two cores and ran past the hook's bound);
// npm installs mostly wait on the network and the cache, so twice as many.
const cores = availableParallelism();
const compiling = pLimit(cores);
const installing = pLimit(2 * cores);
// Liveness bounds sized from the work: packing (238–261 s after a cold build at load 13–25) bounds the hook; a test
// waits for its project's install and tsc, queued behind the others (~60 s each per slot on a slow machine), then runs.
const setupBudgetMs = 600_000;
const testBudgetMs = 300_000 + Math.ceil(variants.length / cores) * 60_000;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'a2a-readme-'));
  const t0 = performance.now();
  const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
  // dist is what the tarballs ship: packPackages builds first (turbo-cached; in CI the build phase already did it).
  const paths = packPackages(join(work, 'tarballs'), publishedPackages());
  const tarballs = new Map<string, Tarball>();
  for (const p of packages) tarballs.set(p.name, { file: paths[p.name] as string, a2aDeps: p.a2aDeps, peers: p.peers });
  console.log(`readme-check: built and packed ${packages.length} packages in ${since(t0)}`);
  // One install per framework project, then one tsc per project and one per CommonJS twin (which uses its project's
  // install), each bounded by the cores (above).
  const installed = new Map<string, Promise<void>>();
  for (const variant of variants) {
    const { project } = variant;
    const mine = [
      ...programs.filter((p) => runsInVariant(p.entry, variant)),
      ...clients.filter((p) => clientIn(p.entry, variant)),
    ];
    const t1 = performance.now();
    let install = installed.get(project.name);
    if (!install) {
      install = installing(() => installProject(join(work, project.name), project, mine, tarballs));
      installed.set(project.name, install);
    }
    prepared.set(
      variant.name,
      install.then(() =>
        compiling(async () => {
          const t2 = performance.now();
          const compiled = await compileProject(join(work, variant.dir), variant, mine);
          console.log(`readme-check: ${variant.name} installed in ${since(t1)}, tsc ${since(t2)}`);
          return compiled;
        }),
      ),
    );
  }
  // Keep an unhandled rejection from surfacing before a test awaits it.
  for (const p of prepared.values()) p.catch(() => {});
  void Promise.allSettled(prepared.values()).then(() =>
    console.log(`readme-check: set-up (${variants.length} projects, ${cores} at a time) took ${since(t0)}`),
  );
}, setupBudgetMs);

afterAll(async () => {
  // With `-t` picking some tests, the other projects may still be installing or compiling into the folder.
  await Promise.allSettled(prepared.values());
  if (work) await rm(work, { recursive: true, force: true });
}, 240_000);

describe('README examples', () => {
  it('every marker is well-formed and every server example is marked', () => {
    expect(scans.flatMap((s) => s.problems)).toEqual([]);
    expect(programs.length).toBeGreaterThan(0);
    // The root README shows the agent that core's README defines for every adapter's example: the same code.
    const agentOf = (readme: string) =>
      scans.flatMap((s) => s.blocks).find((b) => b.readme === readme && b.file === 'agent.ts')?.code;
    expect(agentOf('README.md')).toBeDefined();
    expect(agentOf('README.md')).toBe(agentOf('packages/core/README.md'));
    for (const project of PROJECTS) {
      expect(
        programs.some((p) => runsIn(p.entry, project)),
        `no README example runs in ${project.name}`,
      ).toBe(true);
    }
  });

  const cases = variants.flatMap((variant) =>
    programs.filter((p) => runsInVariant(p.entry, variant)).map((program) => ({ variant, program })),
  );
  for (const { variant, program } of cases) {
    const { readme, file, line } = program.entry;
    // A program with @a2a/postgres gets A2A_DATABASE_URL: a fresh database, dropped afterwards.
    const database = program.files.some((f) => /from '@a2a\/postgres'/.test(f.code));
    // A program with @a2a/redis gets A2A_REDIS_URL: an emptied numbered database of the test server.
    const redis = program.files.some((f) => /from '@a2a\/redis'/.test(f.code));
    // A program with @a2a/grpc serves gRPC (its own HTTP/2 listener): driven with the official client's gRPC transport.
    const grpc = program.files.some((f) => /from '@a2a\/grpc'/.test(f.code));
    if (isTestProject(variant.project)) {
      it.concurrent(
        `${variant.name}: ${readme}:${line} (${file}) compiles and passes under vitest`,
        async () => {
          const compiled = await prepared.get(variant.name);
          if (!compiled?.ok) throw new Error(`${describeBlock(program.entry)} does not compile:\n${compiled?.output}`);
          await runVitest(join(work, variant.dir), program);
        },
        testBudgetMs,
      );
      continue;
    }
    const title = `${variant.name}: ${readme}:${line} (${file}) compiles, runs and serves @a2a-js/sdk${grpc ? ' over gRPC' : ''}`;
    it.concurrent(
      title,
      async ({ skip }) => {
        const compiled = await prepared.get(variant.name);
        if (!compiled?.ok) throw new Error(`${describeBlock(program.entry)} does not compile:\n${compiled?.output}`);
        // Compiled either way; without a test database (outside CI: db.ts fails under CI) it is not run.
        if (database && !hasDatabase) return skip('no A2A_TEST_DATABASE_URL (scripts/start-postgres.sh prints one)');
        if (redis && !redisUrl) return skip('no A2A_TEST_REDIS_URL (scripts/start-redis.sh prints one)');
        const db = database ? await createTestDatabase() : undefined;
        const redisDb = redis ? await freshRedisDatabase() : undefined;
        const env = { ...(db && { A2A_DATABASE_URL: db.url }), ...(redisDb && { A2A_REDIS_URL: redisDb.url }) };
        const entry = join(work, variant.dir, 'dist', program.dir, file.replace(/\.ts$/, '.js'));
        const running = await start(entry, program, env, grpc ? 'grpc' : 'http').catch(async (err) => {
          await db?.drop();
          await redisDb?.release();
          throw err;
        });
        try {
          const drive = grpc
            ? driveLetterWriterOverGrpc(running.origin, running.address)
            : driveLetterWriter(running.origin);
          const steps = await drive.catch((err: Error) => {
            throw new Error(
              `${describeBlock(program.entry)} runs but fails the client: ${err.message}${running.log()}`,
            );
          });
          // card, send, stream, get, list, cancel over JSON-RPC and HTTP+JSON, or over gRPC (the card read over HTTP).
          expect(steps).toHaveLength(grpc ? 6 : 12);
          // The tasks are in the database, not in an in-memory store: send, stream and cancel over both transports.
          if (db) expect(await countTasks(db.url), `a2a_tasks rows in ${db.url}`).toBe(6);
          if (redisDb) expect(await countRedisTasks(redisDb.url), `task hashes in ${redisDb.url}`).toBe(6);
          // The client examples meant for this project, each pointed at this server.
          for (const client of clients.filter((c) => clientIn(c.entry, variant))) {
            const file = join(work, variant.dir, 'dist', client.dir, client.entry.file.replace(/\.ts$/, '.js'));
            await runClient(file, client, running);
          }
        } finally {
          await running.stop();
          await db?.drop();
          await redisDb?.release();
        }
        // The gRPC example closes its server and handler on SIGTERM: the process then ends by itself, exit code 0.
        if (grpc) {
          expect(
            running.exit(),
            `${describeBlock(program.entry)}: exit code 0 on SIGTERM (its handler closes the server)${running.log()}`,
          ).toBe('0');
        }
      },
      testBudgetMs,
    );
  }
});

/** Rows of a2a_tasks, read with the pg that @a2a/postgres's tests use. */
async function countTasks(url: string): Promise<number> {
  interface PgClient {
    connect(): Promise<void>;
    query(sql: string): Promise<{ rows: { n: string }[] }>;
    end(): Promise<void>;
  }
  const pg = createRequire(join(ROOT, 'packages/postgres/package.json'))('pg') as {
    Client: new (options: { connectionString: string }) => PgClient;
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT count(*) AS n FROM a2a_tasks')).rows[0]?.n);
  } finally {
    await client.end();
  }
}

function describeBlock(block: Block): string {
  return `the \`${block.file}\` example at ${block.readme}:${block.line}`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  await new Promise((ok) => server.close(ok));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Runs a test-file example (`run=vitest`) as its README says, with the project's own vitest on the file as written
 * (`src/<program>/<file>`); every test in it must pass, and it must have some (vitest exits 1 on a file without tests
 * too).
 */
async function runVitest(project: string, program: Program): Promise<void> {
  const file = `src/${program.dir}/${program.entry.file}`;
  const child = spawn(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', file], {
    cwd: project,
    // Not this run's own VITEST_* variables: the example is a vitest run of its own, as a user starts it.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill(), 240_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const summary = /Tests\s+.*$/m.exec(output)?.[0] ?? '';
  console.log(`readme-check: ${describeBlock(program.entry)} under vitest: exit ${code} ${summary}`);
  if (code !== 0) {
    throw new Error(
      `${describeBlock(program.entry)} failed under vitest (${code ?? 'killed after 240 s'})\n--- its output ---\n${output}`,
    );
  }
}

/** Runs a compiled client example with AGENT_URL set to a running server; it must exit 0 within 30 s. */
async function runClient(entry: string, program: Program, server: { origin: string; log: () => string }) {
  const child = spawn(process.execPath, [entry], {
    cwd: join(entry, '..'),
    env: { ...process.env, AGENT_URL: server.origin },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill(), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  console.log(`readme-check: ${describeBlock(program.entry)} against ${server.origin}: exit ${code}`);
  if (code !== 0) {
    throw new Error(
      `${describeBlock(program.entry)} exited (${code ?? 'killed after 30 s'}) against ${server.origin}\n--- its output ---\n${output}${server.log()}`,
    );
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port (the socket is closed right away). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', timeout: 2000 });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Starts the compiled example with PORT set (and HOST=127.0.0.1, for a program that reads it: the gRPC example) and
 * waits until it accepts connections (or exits): an HTTP request, or for a gRPC server (which closes connections that
 * do not speak HTTP/2) a TCP connection.
 */
async function start(entry: string, program: Program, env: Record<string, string> = {}, kind: 'http' | 'grpc') {
  const port = await freePort();
  // The gRPC example serves its card over HTTP on HTTP_PORT beside the gRPC listener on PORT.
  const httpPort = kind === 'grpc' ? await freePort() : port;
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: join(entry, '..'),
    env: { ...process.env, ...env, PORT: String(port), HTTP_PORT: String(httpPort), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const log = () => (output ? `\n--- its output ---\n${output}` : '');
  const origin = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${describeBlock(program.entry)} exited (${child.exitCode ?? child.signalCode})${log()}`);
    }
    const up =
      (kind === 'http' || (await accepts(port))) &&
      (await fetch(origin, { signal: AbortSignal.timeout(2000) }).then(
        () => true,
        () => false,
      ));
    if (up) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`${describeBlock(program.entry)} did not listen on PORT=${port} within 30 s${log()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  /** SIGTERM (the programs that handle it shut down: the @a2a/postgres example closes its pool), SIGKILL after 10 s. */
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  /** How it ended: the exit code, or the signal that ended it (SIGKILL: it outlived SIGTERM by 10 s). */
  const exit = () => String(child.exitCode ?? child.signalCode);
  return { child, origin, address: `127.0.0.1:${port}`, log, stop, exit };
}
