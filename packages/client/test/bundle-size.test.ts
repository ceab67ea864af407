// What users of the packed package get, not the sources: @a2a/core and @a2a/client are packed as `pnpm publish` would
// (built first, turbo-cached), unpacked into a fresh node_modules, and `export * from '@a2a/client'` is bundled for the
// browser with esbuild and with rolldown (the root's devDependency, as the ESM build uses), resolved with the standard
// conditions only (no `@a2a/source`). Both bundles must hold core's error table (`@a2a/core/errors`, a chunk of its
// own) and nothing else of core: no engine, no zod, jose, ipaddr.js or lru.min, and stay under 10 kB gzipped. Node
// must load no zod module either, from the ESM build nor the CommonJS one. Regression: core's ESM build was one chunk
// and the client imported A2AError from core's root, so a browser bundle was 150 kB gzipped (esbuild) and
// `import('@a2a/client')` loaded Zod's ~95 modules, while this test bundled the TypeScript sources (8 kB) and passed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackages, ROOT } from '../../../scripts/pack-packages.mjs';

const LIMIT = 10_000; // bytes, gzipped
/** Packages whose code must not reach the client's bundle or load with it. */
const HEAVY = /\/node_modules\/(zod|jose|ipaddr\.js|lru\.min|canonicalize)\//;
/** Where the packed packages are unpacked: the consumer's project. */
let app: string;
let entry: string;

beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), 'a2a-client-bundle-'));
  app = join(work, 'app');
  const tarballs = packPackages(join(work, 'tarballs'), ['core', 'client']);
  const modules = join(app, 'node_modules');
  for (const dir of ['core', 'client']) {
    const to = join(modules, '@a2a', dir);
    mkdirSync(to, { recursive: true });
    execFileSync('tar', ['xzf', tarballs[`@a2a/${dir}`] as string, '-C', to, '--strip-components=1']);
    // The dependencies as npm would install them: the workspace's copies of the same versions.
    const { dependencies = {} } = JSON.parse(readFileSync(join(to, 'package.json'), 'utf8'));
    for (const name of Object.keys(dependencies)) {
      if (name.startsWith('@a2a/')) continue;
      const link = join(modules, name);
      mkdirSync(join(link, '..'), { recursive: true });
      try {
        symlinkSync(realpathSync(join(ROOT, 'packages', dir, 'node_modules', name)), link, 'junction');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // shared by core and the client
      }
    }
  }
  entry = join(app, 'entry.js');
  writeFileSync(entry, "export * from '@a2a/client';\n");
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
}, 600_000); // a liveness bound: a cold build of core and the client on a slow, loaded machine

afterAll(() => {
  if (app) rmSync(join(app, '..'), { recursive: true, force: true });
});

/** The path of an input module from the unpacked packages, as `@a2a/core/dist/...` or `node_modules/zod/...`. */
const short = (path: string): string => path.replace(/^.*?node_modules\/(@a2a\/)/, '$1');

describe('@a2a/client bundled for the browser from the packed tarball', () => {
  it('esbuild: core contributes its error table only, no zod or jose, under 10 kB gzipped', async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser', // conditions: browser, import, default (and module)
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: app,
    });
    const output = Object.values(result.metafile.outputs)[0];
    // The modules whose code is in the output (esbuild reads more, and drops what nothing uses).
    const inputs = Object.entries(output?.inputs ?? {})
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([path]) => `/${path}`);
    expect(inputs.filter((i) => HEAVY.test(i))).toEqual([]);
    const fromCore = inputs.filter((i) => i.includes('/@a2a/core/')).map(short);
    expect(fromCore).toEqual([expect.stringMatching(/^@a2a\/core\/dist\/chunks\/errors-[\w-]+\.js$/)]);
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    const gzipped = gzipSync(code).length;
    console.log(`@a2a/client browser bundle (esbuild, packed): ${code.length} B minified, ${gzipped} B gzipped`);
    expect(gzipped).toBeLessThan(LIMIT);
  });

  it('rolldown: the same, every chunk counted', async () => {
    const bundle = await rolldown({
      input: entry,
      platform: 'browser',
      resolve: { conditionNames: ['browser', 'import', 'default'] },
      logLevel: 'silent',
    });
    const { output } = await bundle.generate({ format: 'esm', minify: true });
    await bundle.close();
    const chunks = output.flatMap((c) => (c.type === 'chunk' ? [c] : []));
    const modules = chunks.flatMap((c) =>
      Object.entries(c.modules)
        .filter(([, m]) => m.renderedLength > 0)
        .map(([id]) => id.replaceAll('\\', '/')),
    );
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
    const fromCore = modules.filter((m) => m.includes('/@a2a/core/')).map(short);
    expect(fromCore).toEqual([expect.stringMatching(/^@a2a\/core\/dist\/chunks\/errors-[\w-]+\.js$/)]);
    const minified = chunks.reduce((sum, c) => sum + c.code.length, 0);
    const gzipped = chunks.reduce((sum, c) => sum + gzipSync(c.code).length, 0);
    console.log(
      `@a2a/client browser bundle (rolldown, packed): ${chunks.length} chunk(s), ${minified} B minified, ${gzipped} B gzipped`,
    );
    expect(gzipped).toBeLessThan(LIMIT);
  });
});

describe('@a2a/client in Node from the packed tarball', () => {
  it('import() loads no zod, jose or engine module (ESM)', () => {
    // A load hook appends every loaded URL to a file (synchronously: complete once the import has resolved).
    const log = join(app, 'loaded.log');
    writeFileSync(log, '');
    const hooks = `data:text/javascript,import { appendFileSync } from 'node:fs';
      export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
    const register = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(hooks)});`;
    const code = "const c = await import('@a2a/client'); console.log(typeof c.A2AClient, typeof c.isA2AError)";
    const out = execFileSync(process.execPath, ['--import', register, '--input-type=module', '-e', code], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('function function');
    const files = readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => new URL(url).pathname);
    expect(files.some((f) => f.includes('/@a2a/client/dist/'))).toBe(true);
    expect(files.filter((f) => HEAVY.test(f))).toEqual([]);
    const fromCore = files.filter((f) => f.includes('/@a2a/core/')).map(short);
    expect(fromCore.sort()).toEqual([
      expect.stringMatching(/^@a2a\/core\/dist\/chunks\/errors-[\w-]+\.js$/),
      '@a2a/core/dist/public-errors.js',
    ]);
  });

  it('require() loads no zod, jose or engine module (CommonJS)', () => {
    const code = `const c = require('@a2a/client');
      const files = Object.keys(require.cache).map((f) => f.replaceAll('\\\\', '/'));
      console.log(JSON.stringify({ client: typeof c.A2AClient, files }));`;
    const { client, files } = JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd: app, encoding: 'utf8' }));
    expect(client).toBe('function');
    expect(files.some((f: string) => f.includes('/@a2a/client/dist/cjs/'))).toBe(true);
    expect(files.filter((f: string) => HEAVY.test(f))).toEqual([]);
    const fromCore = files.filter((f: string) => f.includes('/@a2a/core/')).map(short);
    expect(fromCore.sort()).toEqual([
      expect.stringMatching(/^@a2a\/core\/dist\/cjs\/chunks\/errors-[\w-]+\.js$/),
      '@a2a/core/dist/cjs/public-errors.js',
    ]);
  });
});
