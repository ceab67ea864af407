import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';

// `@a2a/hono` runs on Cloudflare Workers, where a `node:` import fails the deploy (without `nodejs_compat`). Its
// fast path on `@hono/node-server` reads Node's request, duck-typed: nothing it loads, at start-up or at first use
// (the legacy wires, the dialects), may import a `node:` module. Checked on the built package, bundled for workerd.
const ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'a2a-hono-workers-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('@a2a/hono on Workers', () => {
  it('loads no node: module, at start-up or at first use', async () => {
    const bundle = await rolldown({
      input: ENTRY,
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
    expect(output.length).toBeGreaterThan(1); // the chunks loaded at first use are checked too
    expect(nodeImports).toEqual([]);
  }, 60_000);
});
