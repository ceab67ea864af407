// The entries that promise Fetch hosts without Node (Cloudflare Workers, browsers) load no `node:` module, at start-up or
// at first use (the chunks of the legacy wires, the dialects, card signing): on Workers without `nodejs_compat` such
// an import fails the deploy, and a browser bundle cannot resolve it. Checked on the built packages, bundled for workerd
// and the browser as a user's bundler would. Regression: `@a2a/hono` loaded core's Node chunk (node:http, node:https,
// node:dns/promises, node:stream) through `@a2a/core/internal`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/pack-packages.mjs';

/** Each entry, and whether it has chunks loaded at first use (then they are checked too). */
const ENTRIES: [entry: string, lazyChunks: boolean][] = [
  ['core/dist/index.js', true], // `a2a.fetch` on Workers, Bun, Deno, Next.js's edge
  ['core/dist/adapter.js', true],
  ['core/dist/public-errors.js', false], // `@a2a/core/errors`: the error table alone, what the client takes
  ['core/dist/error-shapes.js', false], // `@a2a/core/error-shapes`: the error table and the rules that read answers
  ['core/dist/schemas/index.js', false],
  ['hono/dist/index.js', true], // README: Node, Bun, Deno or Cloudflare Workers
  ['client/dist/index.js', false], // README: browsers. No lazy chunk: of core it takes `@a2a/core/errors` alone
  ['webhook-receiver/dist/index.js', true], // README: any Fetch-native host (workers)
];
const work = mkdtempSync(join(tmpdir(), 'a2a-runtime-neutral-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('runtime-neutral entries', () => {
  it.each(ENTRIES)(
    'packages/%s loads no node: module',
    async (entry, lazyChunks) => {
      const out = join(work, entry.replaceAll('/', '-'));
      const bundle = await rolldown({
        input: join(ROOT, 'packages', entry),
        platform: 'browser',
        resolve: { conditionNames: ['workerd', 'worker', 'browser', 'import', 'default'] },
        logLevel: 'silent',
      });
      const { output } = await bundle.write({ dir: out, format: 'esm' });
      await bundle.close();
      const nodeImports = output.flatMap((chunk) => {
        if (chunk.type !== 'chunk') return [];
        const code = readFileSync(join(out, chunk.fileName), 'utf8');
        return [...code.matchAll(/(?:from|import)\s*\(?\s*["'](node:[^"']+)["']/g)].map(
          (m) => `${chunk.fileName}: ${m[1]}`,
        );
      });
      expect(output.length > 1).toBe(lazyChunks); // the chunks loaded at first use are in the output
      expect(nodeImports).toEqual([]);
    },
    60_000,
  );
});
