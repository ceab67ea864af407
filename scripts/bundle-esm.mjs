// The ESM half of a package's build, after `tsc -p tsconfig.build.json --emitDeclarationOnly` wrote the declarations:
// bundles each entry of package.json `exports` (its `@a2a/source` file) into the file its `import` condition names,
// with code splitting, so every module lives in exactly one file (the entries share chunks under dist/chunks/: one
// A2AError class whichever entry it is imported from), and a dynamic `import()` (the legacy wires, the dialects,
// card signing) becomes a chunk that loads at first use. Dependencies stay external, but `zod` (INLINED below).
// Why: Node's ESM loader costs 0.5-1 ms CPU per file at start-up (docs/performance.md, "Footprint"), so what an
// entry loads at start-up is one chunk per group below, not one file per module.
// For a dual package (its entries have a `require` condition) the same module graph, split into the same chunks, is
// also written as CommonJS under dist/cjs/ (`require` files mirror `import` ones): one copy of the code in ~15 files
// rather than tsc's unbundled per-module copy (151 files, twice the bytes installed: docs/performance.md, "Install
// size"). build-cjs.mjs, after this, only writes dist/cjs/'s declarations and its `"type": "commonjs"` marker.
// Used by the packages' `build` scripts, before build-cjs.mjs.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
/** Whether every entry also has a CommonJS file (dist/cjs/<same name>.js), which this script then writes too. */
let dual = true;
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target !== 'object' || !target['@a2a/source']) continue;
  const source = target['@a2a/source'];
  const out = target.import.default;
  const name = relative('dist', out).replace(/\.js$/, '');
  if (relative('src', source).replace(/\.ts$/, '') !== name) {
    throw new Error(`${subpath}: ${out} must mirror ${source} (the declarations tsc wrote sit there)`);
  }
  const cjs = target.require?.default;
  if (!cjs) dual = false;
  else if (relative(join('dist', 'cjs'), cjs).replace(/\.js$/, '') !== name) {
    throw new Error(`${subpath}: ${cjs} must mirror ${out} (one chunk layout for both formats)`);
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

/**
 * Packages bundled into our files rather than loaded from node_modules: Zod, tree-shaken (~0.2 MB per format against
 * its 6.3 MB install), so that the engine's refusals and the v0.3 readers run without `zod` installed. Core lists it
 * as an optional peer, for the types of `@a2a/core/schemas` (docs/performance.md, "Install size (issue 39)").
 */
const INLINED = new Set(['zod']);
const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).filter((name) => !INLINED.has(name));
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
const codeSplitting = {
  groups: [
    { name: 'schema-plain', priority: groups.length + 1, test: (id) => ZOD_FREE.some((re) => re.test(id)) },
    ...groups.map((name, i) => ({
      name: CHUNK_NAMES[name] ?? name.replace(/\/index$/, ''),
      priority: groups.length - i,
      test: (id) => reached.get(name).has(id),
    })),
  ],
};
const chunkFileNames = 'chunks/[name]-[hash].js';
const written = new Set();
const { output } = await bundle.write({ dir: 'dist', format: 'esm', chunkFileNames, codeSplitting });
for (const file of output) written.add(resolve('dist', file.fileName));
if (dual) {
  // Every dynamic import() becomes a require() (as tsc's CommonJS output had it: `@opentelemetry/api` is loaded by the
  // same loader as the app's own require of it), except jose's: jose is ES modules only, and Node without require(esm)
  // (`--no-experimental-require-module`) refuses to require() it (module-modes.test.ts).
  const cjs = await bundle.write({
    dir: 'dist/cjs',
    format: 'cjs',
    chunkFileNames,
    codeSplitting,
    dynamicImportInCjs: false,
  });
  const requireJose =
    /Promise\.resolve\(\)\.then\(\(\) => (?:\/\* @__PURE__ \*\/ )?[\w$.]+\(require\("jose"\)(?:, 1)?\)\)/g;
  for (const file of cjs.output) {
    const path = resolve('dist/cjs', file.fileName);
    written.add(path);
    if (file.type !== 'chunk' || !file.code.includes('require("jose")')) continue;
    const code = file.code.replace(requireJose, 'import("jose")');
    if (code.includes('require("jose")'))
      throw new Error(`${file.fileName}: a require("jose") left (rolldown's output changed?)`);
    writeFileSync(path, code);
  }
}
await bundle.close();

// What an earlier build left (per-file tsc output, older chunks), removed after the new files are written, so that a
// process loading dist/ meanwhile (another test's build, a running app) finds either build whole. A package that is
// not dual keeps its dist/cjs/ (build-cjs.mjs's).
for (const entry of readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })) {
  const file = join(entry.parentPath, entry.name);
  const stale = entry.isFile() && file.endsWith('.js') && !written.has(resolve(file));
  if (stale && (dual || !relative(join(root, 'dist'), file).startsWith('cjs'))) rmSync(file);
}
