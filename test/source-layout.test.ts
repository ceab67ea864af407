// The repository's shape, checked mechanically (docs/architecture.md, "Tests"): hand-written source files stay short
// enough to read as one concept, the architecture map names every package and every folder of core's src/, and core's
// folders import only downwards in the map's layer picture (or as its exceptions table says). Import cycles and
// adapters reaching into `@a2a/core/internal` are refused by Biome (biome.json), in the lint phase.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
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

  it('every file or folder docs/architecture.md writes out exists', () => {
    const map = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    // A path is written from the root, from core's src/ (the map's default), or from a package or folder its row
    // names (then only its tail is written): each must match the end of a tracked path.
    const exists = (path: string) =>
      tracked.some(
        (file) =>
          file === path ||
          file === `packages/core/src/${path}` ||
          `/${file}`.endsWith(`/${path}`) ||
          (path.endsWith('/') && (file.startsWith(path) || file.includes(`/${path}`))),
      );
    const paths = [...map.matchAll(/`([\w./-]+(?:\.(?:ts|mts|md|mjs|json|yaml|sh)|\/))`/g)].map(
      ([, path]) => path as string,
    );
    expect(paths.length).toBeGreaterThan(100);
    expect([...new Set(paths)].filter((path) => !exists(path))).toEqual([]);
  });

  it('core’s folders import only from the layers below theirs, but for the exceptions docs/architecture.md lists', () => {
    const map = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const rank = layerRanks(map);
    // "The entry files sit there too, above everything: `index.ts` (`.`), …": they re-export from every layer.
    const entries = (map.split('The entry files sit there too, above everything:')[1]?.split(';')[0] ?? '').match(
      /[\w-]+\.ts/g,
    );
    const allowed = new Set(exceptionRows(map));
    const src = join(ROOT, 'packages', 'core', 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const against: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      if (entries?.includes(file)) continue;
      for (const [, specifier] of readFileSync(join(src, file), 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
        const target = relative(src, normalize(join(src, dirname(file), specifier as string))).replace(/\.js$/, '.ts');
        const to = folderOf(target);
        const up = (rank.get(to) ?? Number.POSITIVE_INFINITY) < (rank.get(from) as number);
        const sideways = from !== to && rank.get(to) === rank.get(from) && ['node', 'handler'].includes(from);
        if ((up || sideways) && !allowed.has(`${file} -> ${target}`)) against.push(`${file} -> ${target}`);
      }
    }
    expect(against).toEqual([]);
    // And no row of the table is stale.
    const seen = files.flatMap((file) =>
      [...readFileSync(join(src, file), 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map(
        ([, specifier]) =>
          `${file} -> ${relative(src, normalize(join(src, dirname(file), specifier as string))).replace(/\.js$/, '.ts')}`,
      ),
    );
    expect([...allowed].filter((row) => !seen.includes(row))).toEqual([]);
  });
});

/** A core source file's top folder ('' for the files directly in src/, which the picture puts at the bottom). */
const folderOf = (file: string): string => (file.includes('/') ? (file.split('/')[0] as string) : '');

/** The layer of each folder, top (0) to bottom, read from the picture under "## The layers". */
function layerRanks(map: string): Map<string, number> {
  const picture = map.split('## The layers')[1]?.split('```text')[1]?.split('```')[0] ?? '';
  const rank = new Map<string, number>();
  picture.split('↓').forEach((layer, index) => {
    for (const [, folders] of layer.matchAll(/packages\/core\/src\/\{?([\w,]+)\}?\//g)) {
      for (const folder of (folders as string).split(',')) rank.set(folder, index);
    }
    if (layer.includes('src/task-state.ts')) rank.set('', index);
  });
  return rank;
}

/** The map's exceptions table as `from -> to` pairs of files relative to core's src/. */
function exceptionRows(map: string): string[] {
  const table = map.split('These imports go against the picture today:')[1]?.split('\n\n')[1] ?? '';
  return table
    .split('\n')
    .slice(2)
    .flatMap((row) => {
      const [, from = '', to = ''] = row.split('|');
      const files = (cell: string) => [...cell.matchAll(/`([\w/.-]+\.ts)`/g)].map(([, file]) => file as string);
      return files(from).flatMap((f) => files(to).map((t) => `${f} -> ${t}`));
    });
}
