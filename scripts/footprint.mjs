#!/usr/bin/env node
// Install size and cold-import time of @a2a/core + @a2a/express as a user gets them (packed tarballs, npm install
// into a fresh project), next to the official SDK on Express. Figures go to docs/performance.md ("Footprint").
//   node scripts/footprint.mjs [--runs 20] [--sdk] [--root DIR]
// --sdk also measures @a2a-js/sdk + express; --root packs another built checkout of this repo (e.g. main, for a
// before/after comparison).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { npmEnv, packPackages } from './pack-packages.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, sdk: { type: 'boolean' }, root: { type: 'string' } },
});
const runs = Number(values.runs);

function install(dir, specs) {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'footprint', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
    cwd: dir,
    env: npmEnv(),
  });
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages).filter((key) => key !== '').length;
  const bytes = Number(execFileSync('du', ['-sb', join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]);
  const sizes = Object.fromEntries(
    ['@a2a/core', 'zod', 'lru-cache', 'jose'].map((name) => {
      const out = spawnSync('du', ['-sb', join(dir, 'node_modules', name)], { encoding: 'utf8' });
      return [name, out.status === 0 ? Number(out.stdout.split('\t')[0]) : 0];
    }),
  );
  return { packages, bytes, sizes };
}

/**
 * Medians over `runs` fresh `node` processes running `code` in `dir` (one warm-up run first): wall time (ms), and the
 * process's own CPU time (user + system, ms), which a busy machine disturbs less than wall time.
 */
function coldImport(dir, code) {
  const wall = [];
  const cpu = [];
  const report = 'const u = process.cpuUsage(); console.log((u.user + u.system) / 1000);';
  for (let i = 0; i <= runs; i++) {
    const t0 = process.hrtime.bigint();
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', `${code}\n${report}`], {
      cwd: dir,
      encoding: 'utf8',
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (out.status !== 0) throw new Error(out.stderr);
    if (i > 0) {
      wall.push(ms);
      cpu.push(Number(out.stdout.trim().split('\n').pop()));
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { wall: median(wall), cpu: median(cpu) };
}
const fmt = ({ wall, cpu }) => `${wall.toFixed(0)} ms wall / ${cpu.toFixed(0)} ms CPU`;

const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
const work = mkdtempSync(join(tmpdir(), 'a2a-footprint-'));
try {
  const tarballs = packPackages(join(work, 'tarballs'), ['core', 'express'], values.root);
  const ours = join(work, 'ours');
  execFileSync('mkdir', ['-p', ours]);
  const size = install(ours, [...Object.values(tarballs), 'express@5']);
  const bare = coldImport(ours, '');
  const a2a = coldImport(ours, "await import('@a2a/core'); await import('@a2a/express'); await import('express');");
  const expressOnly = coldImport(ours, "await import('express');");
  console.log(`@a2a/core + @a2a/express + express 5: ${mb(size.bytes)}, ${size.packages} packages`);
  console.log(
    `  of which ${Object.entries(size.sizes)
      .map(([n, b]) => `${n} ${mb(b)}`)
      .join(', ')}`,
  );
  console.log(`cold import (median of ${runs} fresh processes, Node ${process.version}):`);
  console.log(`  node -e '': ${fmt(bare)}; express alone: ${fmt(expressOnly)}`);
  console.log(`  core + express adapter + express: ${fmt(a2a)}`);
  if (values.sdk) {
    const sdk = join(work, 'sdk');
    execFileSync('mkdir', ['-p', sdk]);
    const sdkSize = install(sdk, ['@a2a-js/sdk@1.3.0', 'express@5']);
    const sdkImport = coldImport(
      sdk,
      "await import('@a2a-js/sdk/server'); await import('@a2a-js/sdk/server/express'); await import('express');",
    );
    console.log(
      `@a2a-js/sdk 1.3.0 + express 5: ${mb(sdkSize.bytes)}, ${sdkSize.packages} packages; cold import ${fmt(sdkImport)}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
