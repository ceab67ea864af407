#!/usr/bin/env node
// Install size and cold-start cost of @a2a/core and every framework adapter as a user gets them (packed tarballs, npm
// install into a fresh project), next to the official SDK on Express. Figures go to docs/performance.md
// ("Footprint").
//   node scripts/footprint.mjs [--runs 15] [--sdk] [--root DIR]
// For each adapter it reports what importing core + the adapter adds to importing its framework alone ("adds"), and
// for `@a2a/core/node` what it adds to a bare `node`: medians of CPU time (user + system of the child, which a busy
// machine disturbs less) and of wall time over `--runs` fresh processes each. The processes of all cases take turns
// (one of each, then again), so load from other jobs falls on every case alike. --sdk also measures
// @a2a-js/sdk 1.3.0 on Express (in its own install); --root packs another built checkout of this repo instead (e.g.
// main before a change, for a before/after comparison). A few minutes at --runs 15.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { npmEnv, packPackages } from './pack-packages.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, sdk: { type: 'boolean' }, root: { type: 'string' } },
});
const runs = Number(values.runs);

/** Each adapter with what its app imports: the framework alone, and core + the adapter on top. */
const ADAPTERS = [
  { dir: 'express', framework: ['express'], adapter: ['@a2a/express'] },
  { dir: 'koa', framework: ['koa'], adapter: ['@a2a/koa'] },
  { dir: 'hapi', framework: ['@hapi/hapi'], adapter: ['@a2a/hapi'] },
  { dir: 'fastify', framework: ['fastify'], adapter: ['@a2a/fastify'] },
  { dir: 'hono', framework: ['hono', '@hono/node-server'], adapter: ['@a2a/hono', '@a2a/hono/node-server'] },
  {
    dir: 'nestjs',
    framework: ['reflect-metadata', '@nestjs/common', '@nestjs/core', '@nestjs/platform-express'],
    adapter: ['@a2a/nestjs'],
  },
];
const FRAMEWORKS = [
  'express@5',
  'koa@3',
  '@hapi/hapi@21',
  'fastify@5',
  'hono@4',
  '@hono/node-server@2',
  '@nestjs/common@11',
  '@nestjs/core@11',
  '@nestjs/platform-express@11',
  'reflect-metadata',
  'rxjs',
];

function install(dir, specs) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'footprint', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
    cwd: dir,
    env: npmEnv(),
  });
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  return Object.keys(lock.packages).filter((key) => key !== '').length;
}

const du = (path) => {
  const out = spawnSync('du', ['-sb', path], { encoding: 'utf8' });
  return out.status === 0 ? Number(out.stdout.split('\t')[0]) : 0;
};
const imports = (names) => names.map((name) => `await import(${JSON.stringify(name)});`).join(' ');

/**
 * Runs every case `runs` times in `dir` (after one warm-up round), one process of each case in turn; returns per
 * case the medians of wall time (ms) and of the process's own CPU time (user + system, ms).
 */
function coldStarts(dir, cases) {
  const report = 'const u = process.cpuUsage(); console.log((u.user + u.system) / 1000);';
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, { wall: [], cpu: [] }]));
  for (let i = 0; i <= runs; i++) {
    for (const [name, code] of Object.entries(cases)) {
      const t0 = process.hrtime.bigint();
      const out = spawnSync(process.execPath, ['--input-type=module', '-e', `${code}\n${report}`], {
        cwd: dir,
        encoding: 'utf8',
      });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (out.status !== 0) throw new Error(`${name}: ${out.stderr}`);
      if (i === 0) continue;
      samples[name].wall.push(ms);
      samples[name].cpu.push(Number(out.stdout.trim().split('\n').pop()));
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [name, { wall: median(s.wall), cpu: median(s.cpu) }]),
  );
}

const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
const ms = (n) => `${n.toFixed(0)} ms`;
const row = (cells) => `| ${cells.join(' | ')} |`;
const work = mkdtempSync(join(tmpdir(), 'a2a-footprint-'));
try {
  const tarballs = packPackages(join(work, 'tarballs'), ['core', ...ADAPTERS.map((a) => a.dir)], values.root);
  const ours = join(work, 'ours');
  const packages = install(ours, [...Object.values(tarballs), ...FRAMEWORKS]);
  const sizes = ['@a2a/core', 'zod', 'jose', 'lru.min', 'ipaddr.js', 'canonicalize']
    .map((name) => `${name} ${mb(du(join(ours, 'node_modules', name)))}`)
    .join(', ');
  console.log(`core, 6 adapters and their frameworks: ${mb(du(join(ours, 'node_modules')))}, ${packages} packages`);
  console.log(`  of which ${sizes}`);

  const cases = { bare: '', node: imports(['@a2a/core/node']) };
  for (const { dir, framework, adapter } of ADAPTERS) {
    cases[`${dir} alone`] = imports(framework);
    cases[dir] = imports(['@a2a/core', ...adapter, ...framework]);
  }
  const times = coldStarts(ours, cases);
  const adds = (name, base) => ({ cpu: times[name].cpu - times[base].cpu, wall: times[name].wall - times[base].wall });

  console.log(`\ncold import, medians of ${runs} fresh processes each, Node ${process.version}; bare node -e '':`);
  console.log(`${ms(times.bare.cpu)} CPU / ${ms(times.bare.wall)} wall\n`);
  console.log(row(['', 'framework alone (CPU / wall)', 'with core + adapter', 'adds CPU', 'adds wall']));
  console.log(row(['---', '---', '---', '---', '---']));
  const node = adds('node', 'bare');
  console.log(row(['`@a2a/core/node` (vs bare node)', '', '', ms(node.cpu), ms(node.wall)]));
  for (const { dir } of ADAPTERS) {
    const alone = times[`${dir} alone`];
    const added = adds(dir, `${dir} alone`);
    console.log(
      row([
        dir,
        `${ms(alone.cpu)} / ${ms(alone.wall)}`,
        `${ms(times[dir].cpu)} / ${ms(times[dir].wall)}`,
        ms(added.cpu),
        ms(added.wall),
      ]),
    );
  }

  if (values.sdk) {
    const sdk = join(work, 'sdk');
    const sdkPackages = install(sdk, ['@a2a-js/sdk@1.3.0', 'express@5']);
    const sdkTimes = coldStarts(sdk, {
      express: imports(['express']),
      sdk: imports(['@a2a-js/sdk/server', '@a2a-js/sdk/server/express', 'express']),
    });
    const cpu = sdkTimes.sdk.cpu - sdkTimes.express.cpu;
    const wall = sdkTimes.sdk.wall - sdkTimes.express.wall;
    console.log(
      `\n@a2a-js/sdk 1.3.0 + express 5 (${mb(du(join(sdk, 'node_modules')))}, ${sdkPackages} packages): adds ${ms(cpu)} CPU / ${ms(wall)} wall to express alone (${ms(sdkTimes.express.cpu)} CPU)`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
