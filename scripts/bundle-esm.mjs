// The ESM half of a package's build, after `tsc -p tsconfig.build.json --emitDeclarationOnly` wrote the declarations:
// bundles each entry of package.json `exports` (its `@a2a/source` file) into the file its `import` condition names,
// with code splitting, so every module lives in exactly one file (the entries share chunks under dist/chunks/: one
// A2AError class whichever entry it is imported from), and a dynamic `import()` (the legacy wires, the dialects,
// card signing) becomes a chunk that loads at first use. Dependencies stay external: users compose our Zod schemas
// with their own `zod`. Why: Node's ESM loader costs 0.5-1 ms CPU per file at start-up (docs/performance.md,
// "Footprint"), so what an entry loads at start-up is one chunk per group below, not one file per module.
// Used by the packages' `build` scripts, before build-cjs.mjs.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { rolldown } from 'rolldown';

/**
 * Entries (by output name) whose static imports each become one chunk, in this order: a module that several reach
 * goes to the first. The error table first and alone, so `@a2a/core/errors` (what `@a2a/client` takes) loads neither
 * the engine nor Zod, and a bundler that starts there keeps only it; then runtime-neutral code, so `@a2a/core` never
 * loads the Node chunk, nor `@a2a/core/adapter` (the bridge pieces that Fetch-host adapters such as Hono's take, ahead
 * of the Node chunk); the schemas alone, so `@a2a/core/schemas` loads them without the engine. The modules that only
 * other entries (`./internal`) or dynamic imports reach are split automatically.
 */
const GROUPS = ['public-errors', 'schemas/index', 'index', 'adapter', 'node/index'];

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** Chunk names (chunks/<name>-<hash>.js) other than the entry's own, which drops a trailing `/index`. */
const CHUNK_NAMES = { index: pkg.name.split('/').pop(), 'public-errors': 'errors' }; // chunks/core-….js
const input = {};
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target !== 'object' || !target['@a2a/source']) continue;
  const source = target['@a2a/source'];
  const out = target.import.default;
  const name = relative('dist', out).replace(/\.js$/, '');
  if (relative('src', source).replace(/\.ts$/, '') !== name) {
    throw new Error(`${subpath}: ${out} must mirror ${source} (the declarations tsc wrote sit there)`);
  }
  input[name] = source;
}
const groups = GROUPS.filter((name) => input[name]);
/**
 * Modules both the schemas and the engine import that must not pull Zod into the engine's start-up: core's
 * `schemas/plain.ts` (the schemas' callbacks, which the generated validators import too). A chunk of their own, ahead
 * of the groups above (docs/performance.md, "Cold start").
 */
const ZOD_FREE = [/\/src\/schemas\/plain\.ts$/];

/** Per group entry, the modules it imports statically, directly or not (filled once the module graph is built). */
const reached = new Map(groups.map((name) => [name, new Set()]));
const staticImports = {
  name: 'static-imports',
  buildEnd() {
    for (const name of groups) {
      const seen = reached.get(name);
      const todo = [resolve(input[name])];
      while (todo.length > 0) {
        const id = todo.pop();
        if (seen.has(id)) continue;
        seen.add(id);
        const info = this.getModuleInfo(id);
        if (info && !info.isExternal) todo.push(...info.importedIds);
      }
    }
  },
};

const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
const bundle = await rolldown({
  input,
  platform: 'node',
  tsconfig: 'tsconfig.build.json',
  external: [
    /^node:/,
    ...dependencies.map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/|$)`)),
  ],
  plugins: [staticImports],
  logLevel: 'warn',
});
const { output } = await bundle.write({
  dir: 'dist',
  format: 'esm',
  chunkFileNames: 'chunks/[name]-[hash].js',
  codeSplitting: {
    groups: [
      { name: 'schema-plain', priority: groups.length + 1, test: (id) => ZOD_FREE.some((re) => re.test(id)) },
      ...groups.map((name, i) => ({
        name: CHUNK_NAMES[name] ?? name.replace(/\/index$/, ''),
        priority: groups.length - i,
        test: (id) => reached.get(name).has(id),
      })),
    ],
  },
});
await bundle.close();

// What an earlier build left (per-file tsc output, older chunks), removed after the new files are written, so that a
// process loading dist/ meanwhile (another test's build, a running app) finds either build whole. dist/cjs/ is
// build-cjs.mjs's.
const written = new Set(output.map((file) => resolve('dist', file.fileName)));
for (const entry of readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })) {
  const file = join(entry.parentPath, entry.name);
  const stale = entry.isFile() && file.endsWith('.js') && !written.has(resolve(file));
  if (stale && !relative(join(root, 'dist'), file).startsWith('cjs')) rmSync(file);
}
