// The ESM half of a package's build, after `tsc -p tsconfig.build.json --emitDeclarationOnly` wrote the declarations:
// bundles each entry of package.json `exports` (its `@a2a/source` file) into the file its `import` condition names,
// with code splitting, so every module lives in exactly one file (entries share chunks under dist/chunks/: one
// A2AError class whichever entry it is imported from), and a dynamic `import()` (the legacy wires, the dialects)
// becomes a chunk of its own that loads at first use. Dependencies stay external: users compose our Zod schemas
// with their own `zod`. Why: Node's ESM loader costs ~0.3 ms per module file at start-up (docs/performance.md,
// "Footprint"). Used by the packages' `build` scripts, before build-cjs.mjs.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entryPoints = {};
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target !== 'object' || !target['@a2a/source']) continue;
  const source = target['@a2a/source'];
  const out = target.import.default;
  const name = relative('dist', out).replace(/\.js$/, '');
  if (relative('src', source).replace(/\.ts$/, '') !== name) {
    throw new Error(`${subpath}: ${out} must mirror ${source} (the declarations tsc wrote sit there)`);
  }
  entryPoints[name] = source;
}

// What an earlier build (per-file tsc output, older chunks) left; dist/cjs/ is build-cjs.mjs's.
for (const entry of readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })) {
  const file = join(entry.parentPath, entry.name);
  if (entry.isFile() && file.endsWith('.js') && !relative(join(root, 'dist'), file).startsWith('cjs')) rmSync(file);
}

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  tsconfig: 'tsconfig.build.json',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
