// Packs the published workspace packages into tarballs exactly as `pnpm publish` would (workspace:^ ranges become
// real versions), for tests and scripts that install them with npm into a fresh project.
// Usage from code: `const tarballs = packPackages(dir, ['core', 'express'])` → { '@a2a/core': '/dir/a2a-core-0.1.0.tgz', ... }.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PNPM = ['-y', 'pnpm@10.34.8'];

/** Directory names under packages/ of every package that is published (not private). */
export function publishedPackages() {
  return readdirSync(join(ROOT, 'packages')).filter((dir) => {
    const file = join(ROOT, 'packages', dir, 'package.json');
    return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).private !== true;
  });
}

function run(args, cwd) {
  execFileSync('npx', [...PNPM, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: npmEnv() });
}

/** The environment for npm/pnpm children: no update notifier, no telemetry. */
export function npmEnv() {
  return { ...process.env, NPM_CONFIG_UPDATE_NOTIFIER: 'false', TURBO_TELEMETRY_DISABLED: '1' };
}

/**
 * Packs `dirs` (names under packages/ of the checkout `root`) into `dest`, after building them (turbo-cached: a warm
 * build costs about a second, and a stale dist/ is never packed); returns package name → tarball path.
 */
export function packPackages(dest, dirs = publishedPackages(), root = ROOT) {
  mkdirSync(dest, { recursive: true });
  const filters = dirs.map((dir) => `--filter=./packages/${dir}`);
  run(['build', ...filters], root);
  run(['-r', ...filters, 'pack', '--pack-destination', dest], root);
  const out = {};
  for (const dir of dirs) {
    const { name, version } = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
    out[name] = join(dest, `${name.replace('@', '').replace('/', '-')}-${version}.tgz`);
    if (!existsSync(out[name])) throw new Error(`pnpm pack did not write ${out[name]}`);
  }
  return out;
}
