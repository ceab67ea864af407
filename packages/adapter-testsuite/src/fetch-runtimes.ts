import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';

/** Where this monorepo's `.ci/run` puts the pinned Bun and Deno binaries (from src/ and dist/ alike). */
const ciCache = fileURLToPath(new URL('../../../.ci/.cache/', import.meta.url));

/** A Fetch-native runtime: `A2A_TEST_BUN` / `A2A_TEST_DENO` name its binary (default: the monorepo's CI cache). */
export interface FetchRuntime {
  name: 'bun' | 'deno';
  bin: string;
  /** The command line that runs `fixture`; Deno gets `--allow-<p>` for each of `denoAllow`. */
  args(fixture: string, denoAllow: readonly string[]): string[];
}

export const FETCH_RUNTIMES: readonly FetchRuntime[] = [
  {
    name: 'bun',
    bin: process.env.A2A_TEST_BUN ?? `${ciCache}bun/bun`,
    args: (fixture) => ['run', fixture],
  },
  {
    name: 'deno',
    bin: process.env.A2A_TEST_DENO ?? `${ciCache}deno/deno`,
    // Sloppy imports: the sources import './x.js' for './x.ts', as TypeScript's NodeNext resolution wants.
    args: (fixture, denoAllow) => [
      'run',
      ...denoAllow.map((permission) => `--allow-${permission}`),
      '--node-modules-dir=manual',
      '--unstable-sloppy-imports',
      fixture,
    ],
  },
];

export interface FetchRuntimeHostOptions {
  /**
   * The TypeScript file the runtime runs: it serves on 127.0.0.1 port 0 with the runtime's own server (`Bun.serve`,
   * `Deno.serve`) and prints `READY <port>` on stdout once listening.
   */
  fixture: string;
  /** The runtime's working directory: a package whose node_modules resolve the fixture's imports. */
  cwd: string;
  /** Deno permissions. Default `['net', 'env']`. */
  denoAllow?: readonly string[];
  /** How long to wait for `READY`. Default 20 s. */
  timeoutMs?: number;
}

/** The host a describe block of {@link describeOnFetchRuntimes} talks to; `base` is set once it is ready. */
export interface FetchRuntimeHost {
  runtime: FetchRuntime;
  /** `http://127.0.0.1:<port>` */
  base: string;
}

/**
 * One describe block per runtime (`${title} bun`, `${title} deno`), with the fixture started before its tests and
 * killed after. A missing binary skips the block, except under CI, where it fails.
 */
export function describeOnFetchRuntimes(
  title: string,
  options: FetchRuntimeHostOptions,
  define: (host: FetchRuntimeHost) => void,
): void {
  for (const runtime of FETCH_RUNTIMES) {
    const present = existsSync(runtime.bin);
    describe.skipIf(!present && !process.env.CI)(`${title} ${runtime.name}`, () => {
      const host: FetchRuntimeHost = { runtime, base: '' };
      let child: ChildProcess | undefined;
      beforeAll(
        async () => {
          if (!present) throw new Error(`${runtime.name} binary missing at ${runtime.bin} (.ci/run fetches it)`);
          const started = startHost(runtime, options);
          child = started.child;
          host.base = `http://127.0.0.1:${await started.port}`;
        },
        (options.timeoutMs ?? 20_000) + 10_000,
      );
      afterAll(() => {
        child?.kill();
      });
      define(host);
    });
  }
}

function startHost(runtime: FetchRuntime, options: FetchRuntimeHostOptions) {
  const child = spawn(runtime.bin, runtime.args(options.fixture, options.denoAllow ?? ['net', 'env']), {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const port = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${runtime.name} did not start: ${stderr}`)),
      options.timeoutMs ?? 20_000,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${runtime.name} exited (${code}): ${stderr}`));
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const ready = /^READY (\d+)$/.exec(line);
      if (!ready) return;
      clearTimeout(timer);
      resolve(Number(ready[1]));
    });
  });
  return { child, port };
}
