import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Block, type Program, wrapForCommonJS } from './examples.js';

const exec = promisify(execFile);

/** A fresh npm project per framework version, as a user would set one up. */
export interface ProjectSpec {
  name: string;
  /** The `run=` family that selects this project (`run=express` runs in express4 and express5). */
  family: string;
  /** npm specs besides the tarballs: the framework, its types and what the READMEs use with it. */
  deps: string[];
  /**
   * Type-check the installed .d.ts too (ours and the framework's); one project pays for it, the others skip (so does
   * its CommonJS twin, see compileProject).
   */
  libCheck?: boolean;
  /**
   * Also run the examples in a CommonJS twin (`<name>-cjs`: `"type": "commonjs"`, compiled by tsc with this `module`
   * setting; `node16` resolves our `exports` through their `require` condition, `commonjs` through `main`, `types`
   * and `typesVersions` as TypeScript's node10 resolution does). The twin sits in the `cjs/` folder of the ESM
   * project and uses its `node_modules` (Node and tsc look there from a subfolder): no second install.
   */
  commonjs?: 'node16' | 'commonjs';
}

const COMMON = ['typescript@~5.9.3', '@types/node@^20.19.0'];

export const PROJECTS: ProjectSpec[] = [
  {
    name: 'express5',
    family: 'express',
    deps: ['express@^5', '@types/express@^5'],
    libCheck: true,
    commonjs: 'node16',
  },
  // Its twin is compiled with `module: commonjs` (node10 resolution), how a CommonJS project imports @a2a-js/sdk 1.x
  // (@a2a/sdk-compat's example: under node16 the SDK's types resolve as ES modules only).
  { name: 'express4', family: 'express', deps: ['express@^4.21', '@types/express@^4'], commonjs: 'commonjs' },
  {
    name: 'koa3',
    family: 'koa',
    deps: ['koa@^3', '@types/koa@^3', '@koa/router@^15', 'koa-mount@^4', '@types/koa-mount@^4'],
  },
  {
    name: 'koa2',
    family: 'koa',
    deps: ['koa@^2', '@types/koa@^2', '@koa/router@^15', 'koa-mount@^4', '@types/koa-mount@^4'],
    commonjs: 'commonjs',
  },
  { name: 'hapi21', family: 'hapi', deps: ['@hapi/hapi@^21'], commonjs: 'node16' },
  { name: 'fastify5', family: 'fastify', deps: ['fastify@^5'], commonjs: 'commonjs' },
  { name: 'hono4', family: 'hono', deps: ['hono@^4', '@hono/node-server@^2'], commonjs: 'commonjs' },
  {
    name: 'nestjs12',
    family: 'nestjs',
    deps: ['@nestjs/common@^12', '@nestjs/core@^12', '@nestjs/platform-express@^12', 'reflect-metadata', 'rxjs'],
  },
  {
    name: 'nestjs11',
    family: 'nestjs',
    deps: ['@nestjs/common@^11', '@nestjs/core@^11', '@nestjs/platform-express@^11', 'reflect-metadata', 'rxjs'],
    commonjs: 'commonjs', // what a NestJS project's tsconfig has
  },
  // No framework: node:http and @a2a/core/node (the @a2a/postgres example, run against a fresh database).
  { name: 'node', family: 'node', deps: [], commonjs: 'node16' },
  // @a2a/grpc's example: its own HTTP/2 listener, no framework. @grpc/grpc-js comes as @a2a/grpc's dependency, as
  // for a user who follows its README (`npm install @a2a/grpc @a2a/core`).
  // Its client example uses the official SDK's gRPC transport, installed as that README says.
  { name: 'grpc', family: 'grpc', deps: ['@a2a-js/sdk@1.3.0'], commonjs: 'node16' },
  // @a2a/store-testsuite's example: a store's test file, run with vitest (the suite is ESM-only and runs inside it),
  // not a server. Compiled with tsc like the others (the type check), then `vitest run` on the file as written.
  { name: 'vitest4', family: 'vitest', deps: ['vitest@^4'] },
];

/** A project whose examples are test files that vitest runs, rather than servers the client drives. */
export const isTestProject = (project: ProjectSpec): boolean => project.family === 'vitest';

/** A project as compiled and run: the ESM project itself, or its CommonJS twin. */
export interface Variant {
  /** `express5`, or `express5-cjs` for the twin. */
  name: string;
  project: ProjectSpec;
  format: 'esm' | 'cjs';
  /** The folder under the work folder: `express5`, `express5/cjs`. */
  dir: string;
}

export const VARIANTS: Variant[] = PROJECTS.flatMap((project) => [
  { name: project.name, project, format: 'esm' as const, dir: project.name },
  ...(project.commonjs
    ? [{ name: `${project.name}-cjs`, project, format: 'cjs' as const, dir: `${project.name}/cjs` }]
    : []),
]);

export function runsIn(block: Block, project: ProjectSpec): boolean {
  return block.run.includes(project.family) || block.run.includes(project.name);
}

/**
 * Whether the block compiles and runs in this variant: its project runs it and, in a CommonJS twin, the block's
 * `commonjs=` list (if any) names the twin's `module` setting.
 */
export const runsInVariant = (block: Block, variant: Variant): boolean =>
  runsIn(block, variant.project) && compilesIn(block, variant);

/** Whether a client program (`client=`) runs in this variant, against its servers (`commonjs=` as for servers). */
export const clientIn = (block: Block, variant: Variant): boolean =>
  Boolean(block.client?.includes(variant.project.family) || block.client?.includes(variant.project.name)) &&
  compilesIn(block, variant);

/** ES module projects compile every block; a CommonJS twin those whose `commonjs=` list (if any) names its setting. */
const compilesIn = (block: Block, variant: Variant): boolean =>
  variant.format === 'esm' || !block.commonjs || block.commonjs.includes(variant.project.commonjs ?? 'node16');

/** A packed package: its tarball, the @a2a packages it needs, and its other peer dependencies (name → range). */
export interface Tarball {
  file: string;
  a2aDeps: string[];
  peers?: Record<string, string>;
}

/** The npm package an import specifier names (`@scope/name/sub` → `@scope/name`, `name/sub` → `name`). */
export const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * `npm install` of the tarballs the programs import (plus their @a2a dependencies), the project's deps, and the peer
 * dependencies of those tarballs that the programs import themselves and the project does not list (e.g.
 * `@a2a-js/sdk`, an optional peer of `@a2a/sdk-compat` that its README's executor imports), at the peer's range, as a
 * user who follows the README's install line gets them.
 */
export async function installProject(
  dir: string,
  project: ProjectSpec,
  programs: Program[],
  tarballs: Map<string, Tarball>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `readme-${project.name}`, private: true, type: 'module' }, null, 2)}\n`,
  );
  const wanted = new Set<string>();
  const add = (name: string) => {
    const t = tarballs.get(name);
    if (!t || wanted.has(name)) return;
    wanted.add(name);
    for (const d of t.a2aDeps) add(d);
  };
  const imported = new Set<string>();
  for (const p of programs) {
    for (const f of p.files)
      for (const m of f.code.matchAll(/from '([^.'][^']*)'/g)) imported.add(packageOf(m[1] ?? ''));
  }
  for (const name of imported) if (name.startsWith('@a2a/')) add(name);
  const listed = new Set(project.deps.map((spec) => spec.replace(/(.)@.*$/, '$1')));
  const peers = new Map<string, string>();
  for (const name of wanted) {
    for (const [peer, range] of Object.entries(tarballs.get(name)?.peers ?? {})) {
      if (imported.has(peer) && !listed.has(peer)) peers.set(peer, range);
    }
  }
  const specs = [
    ...[...wanted].map((n) => tarballs.get(n)?.file ?? ''),
    ...[...peers].map(([peer, range]) => `${peer}@${range}`),
    ...project.deps,
    ...COMMON,
  ];
  // --prefer-offline: the shared npm cache answers what it holds without revalidating, so repeat runs stay fast.
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...specs];
  await exec('npm', args, {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NPM_CONFIG_UPDATE_NOTIFIER: 'false' },
  }).catch((err: Error & { stderr?: string }) => {
    throw new Error(`npm ${args.join(' ')} failed in the ${project.name} project:\n${err.stderr || err.message}`);
  });
}

export interface CompileResult {
  ok: boolean;
  /** tsc's diagnostics with each program file replaced by its README and line. */
  output: string;
}

/**
 * Writes every program's files verbatim (in the CommonJS twin, a block with top-level await wrapped in an async
 * function: wrapForCommonJS) and compiles the project once with tsc (strict) under the node on PATH.
 */
export async function compileProject(dir: string, variant: Variant, programs: Program[]): Promise<CompileResult> {
  const { project, format } = variant;
  const origin = new Map<string, Block>();
  await mkdir(dir, { recursive: true });
  if (format === 'cjs') {
    const pkg = { name: `readme-${variant.name}`, private: true, type: 'commonjs' };
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  }
  for (const p of programs) {
    await mkdir(join(dir, 'src', p.dir), { recursive: true });
    for (const f of p.files) {
      await writeFile(join(dir, 'src', p.dir, f.file), format === 'cjs' ? wrapForCommonJS(f.code) : f.code);
      origin.set(`src/${p.dir}/${f.file}`, f);
    }
  }
  // `module: commonjs` implies TypeScript's node10 resolution; node16/nodenext pick CommonJS from "type".
  const module = format === 'cjs' ? (project.commonjs ?? 'node16') : 'nodenext';
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: 'es2022',
      module,
      ...(module === 'commonjs' ? {} : { moduleResolution: module }),
      esModuleInterop: true,
      // The twin skips it: @a2a/core's dist/cjs declarations `import type … from 'jose'` (ES modules only) without
      // `resolution-mode`, which tsc rejects (TS1541) in a CommonJS project that checks libraries.
      skipLibCheck: !project.libCheck,
      rootDir: 'src',
      outDir: 'dist',
      types: ['node'],
    },
    include: ['src'],
  };
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  // The project's own typescript (the twin's is its ESM project's, one folder up).
  const tsc = join(dir, format === 'cjs' ? '..' : '', 'node_modules/typescript/bin/tsc');
  try {
    await exec(process.execPath, [tsc, '-p', dir], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true, output: '' };
  } catch (err) {
    const raw = `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}`;
    const output = raw.replace(/^(src\/[^(]+)\((\d+),(\d+)\)/gm, (all, file: string, line: string, col: string) => {
      const block = origin.get(file);
      return block ? `${block.readme}:${block.line + Number(line) - 1}:${col} (block ${block.file})` : all;
    });
    return { ok: false, output: output || String(err) };
  }
}
