import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The browser bundle stays small: only core's error table and type imports come from @a2a/core (no zod, no jose).
describe('the browser bundle', () => {
  it('has no zod or jose and stays under 10 kB gzipped', async () => {
    const result = await build({
      entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['@a2a/source'],
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: new URL('../../..', import.meta.url).pathname, // paths below are relative to the repository
    });
    // The modules whose code is in the output (esbuild reads more, and drops what nothing uses).
    const output = Object.values(result.metafile.outputs)[0];
    const inputs = Object.entries(output?.inputs ?? {})
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([path]) => path);
    expect(inputs.filter((i) => /node_modules\/(zod|jose)\//.test(i))).toEqual([]);
    // Core's error table, and little else: core loads card signing with a dynamic import(), so esbuild (no code
    // splitting here) wraps the modules that graph shares with the static one in lazy initialisers, and those keep
    // the task state table (~0.5 kB) and empty init stubs.
    const fromCore = Object.entries(output?.inputs ?? {}).filter(
      ([path, v]) => path.includes('packages/core/src/') && v.bytesInOutput > 0,
    );
    expect(fromCore.map(([path]) => path)).toContain('packages/core/src/errors.ts');
    const others = fromCore.filter(([path]) => path !== 'packages/core/src/errors.ts');
    expect(others.reduce((sum, [, v]) => sum + v.bytesInOutput, 0)).toBeLessThan(1024);
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    const gzipped = gzipSync(code).length;
    console.log(`@a2a/client browser bundle: ${code.length} B minified, ${gzipped} B gzipped`);
    expect(gzipped).toBeLessThan(10_000);
  });
});
