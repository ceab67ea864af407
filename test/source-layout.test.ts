// The repository's shape, checked mechanically (docs/architecture.md, "Tests"): hand-written source files stay short
// enough to read as one concept, and the architecture map names every package and every folder of core's src/. Import
// cycles and adapters reaching into `@a2a/core/internal` are refused by Biome (biome.json), in the lint phase.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/pack-packages.mjs';

const MAX_LINES = 600;
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** A longer file says why in its first lines: generated code, or a declared catalogue. */
const EXCUSED = /@generated|^\/\/ Long on purpose: \S/m;

const folders = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

describe('source layout', () => {
  it(`no hand-written source file is over ${MAX_LINES} lines without its reason at the top`, () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    const long = tracked
      .filter((file) => SOURCE.test(file))
      .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }))
      .filter(({ text }) => text.split('\n').length - 1 > MAX_LINES)
      .filter(({ text }) => !EXCUSED.test(text.split('\n').slice(0, 10).join('\n')))
      .map(({ file }) => file);
    expect(long).toEqual([]);
  });

  it('docs/architecture.md names every package and app folder, and every top-level folder of core’s src/', () => {
    const map = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const missing = [
      ...folders('packages').map((name) => `packages/${name}`),
      ...folders('apps').map((name) => `apps/${name}`),
    ].filter((path) => !map.includes(`\`${path}\``));
    const coreFolders = folders('packages/core/src').filter((name) => !map.includes(`\`${name}/\``));
    expect({ missing, coreFolders }).toEqual({ missing: [], coreFolders: [] });
  });
});
