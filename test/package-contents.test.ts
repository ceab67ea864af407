// What each packed tarball carries (what an install puts on disk), checked by its shape rather than byte counts, so
// that a build or `files` change cannot quietly bring back a payload users pay for (docs/performance.md, "Install
// size"), nor lose go-to-definition: every declaration map resolves to a source file inside the same tarball.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackages, publishedPackages, ROOT } from '../scripts/pack-packages.mjs';

const PACKAGES = publishedPackages();
let work: string;
/** Per package directory name, the files of its unpacked tarball (paths relative to its root). */
const files = new Map<string, string[]>();

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'a2a-package-contents-'));
  const tarballs = packPackages(join(work, 'tarballs'), PACKAGES);
  for (const dir of PACKAGES) {
    const { name } = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8'));
    const to = join(work, dir);
    mkdirSync(to);
    execFileSync('tar', ['xzf', tarballs[name] as string, '-C', to, '--strip-components=1']);
    files.set(
      dir,
      readdirSync(to, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(to, join(entry.parentPath, entry.name))),
    );
  }
}, 600_000); // a liveness bound: building and packing every package on a slow, loaded machine

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const list = (dir: string): string[] => files.get(dir) ?? [];

/** TypeScript's source mapper (internal to the language service, used by tsserver for go-to-definition). */
interface SourceMapper {
  tryGetSourcePosition(location: { fileName: string; pos: number }): { fileName: string; pos: number } | undefined;
}

describe('packed tarballs', () => {
  it.each(PACKAGES)('%s: no tests, no JavaScript source maps, nothing under src/ but TypeScript sources', (dir) => {
    const all = list(dir);
    expect(all.length).toBeGreaterThan(3);
    expect(all.filter((f) => /\.test\.ts$|^test\//.test(f))).toEqual([]);
    // The code's source is shipped (src/) for the declaration maps; a .js.map per file would add as much again.
    expect(all.filter((f) => f.endsWith('.js.map'))).toEqual([]);
    // Regression: core shipped its folders' developer notes (src/**/README.md, which pnpm packs whatever `files` says
    // unless `files` names only the .ts files), which no tool reads.
    expect(all.filter((f) => f.startsWith('src/') && !f.endsWith('.ts'))).toEqual([]);
  });

  // Go-to-definition: the editor follows a declaration's map to the .ts it came from, which must be in the tarball.
  // The maps are inline (scripts/inline-declaration-maps.mjs). Regression: a .d.ts.map file per declaration took a
  // disk block each (core: 151 files, 0.6 MB on disk for 0.13 MB).
  it.each(PACKAGES)('%s: every ESM declaration maps into a shipped source file, and every source has one', (dir) => {
    const root = join(work, dir);
    expect(list(dir).filter((f) => f.endsWith('.d.ts.map'))).toEqual([]);
    const declarations = list(dir).filter((f) => f.endsWith('.d.ts') && !f.startsWith('dist/cjs/'));
    expect(declarations.length).toBeGreaterThan(0);
    const sources = new Set<string>();
    for (const declaration of declarations) {
      const url = /\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,([\w+/=]+)\s*$/.exec(
        readFileSync(join(root, declaration), 'utf8'),
      );
      expect(url, `${declaration} has no inline map`).not.toBeNull();
      const map = JSON.parse(Buffer.from(url?.[1] ?? '', 'base64').toString('utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      expect(map.sourcesContent).toBeUndefined(); // TypeScript ignores a declaration map that embeds its sources
      for (const source of map.sources) {
        const path = relative(root, join(root, dirname(declaration), source));
        expect(existsSync(join(root, path)), `${declaration} → ${path}`).toBe(true);
        sources.add(path);
      }
    }
    expect(list(dir).filter((f) => f.startsWith('src/') && !sources.has(f))).toEqual([]);
  });

  // A package built by scripts/bundle-esm.mjs (dist/chunks/) has its CommonJS build bundled in the same chunks.
  // Regression: core's dist/cjs/ was tsc's per-module copy (151 files, ~670 kB), larger than the ESM chunks.
  it.each(PACKAGES.filter((dir) => list(dir).some((f) => f.startsWith('dist/chunks/'))))(
    '%s: dist/cjs/ holds the same entries and chunks as dist/, not a file per module',
    (dir) => {
      const js = (cjs: boolean) =>
        list(dir)
          .filter((f) => f.endsWith('.js') && f.startsWith('dist/cjs/') === cjs)
          .map((f) => relative(cjs ? 'dist/cjs' : 'dist', f).replace(/-[\w-]{8}\.js$/, '.js'))
          .sort();
      // rolldown's interop helpers (`__toESM`) are a chunk of their own in CommonJS only.
      expect(js(true).filter((f) => f !== 'chunks/rolldown-runtime.js')).toEqual(js(false));
      // One declaration per module and format: the CommonJS ones are CommonJS-typed (TypeScript node16 needs them).
      const types = (cjs: boolean) => list(dir).filter((f) => f.endsWith('.d.ts') && f.startsWith('dist/cjs/') === cjs);
      expect(types(true).length).toBe(types(false).length);
    },
  );

  // What an editor does (TypeScript's language service, as VS Code runs it): go to the definition of an import from
  // the unpacked packages, in an ESM project (nodenext), and land in the package's src/, not in a declaration file.
  it.each([
    ['core', 'createA2AHandler', '@a2a/core'],
    ['core', 'createNodeHandler', '@a2a/core/node'],
    // A protocol type (plain, generated from its schema) and a schema whose declaration file starts with the
    // `@ts-ignore`d zod import (scripts/optional-peer-declarations.mjs shifts its map by that line); no zod installed.
    ['core', 'Task', '@a2a/core'],
    ['core', 'TaskSchema', '@a2a/core/schemas'],
    ['express', 'a2aExpress', '@a2a/express'],
  ])('%s: go-to-definition of %s (%s) opens its TypeScript source', (dir, name, specifier) => {
    const app = join(work, `app-${dir}-${name}`);
    mkdirSync(join(app, 'node_modules', '@a2a'), { recursive: true });
    for (const linked of ['core', dir]) {
      if (!existsSync(join(app, 'node_modules', '@a2a', linked))) {
        symlinkSync(join(work, linked), join(app, 'node_modules', '@a2a', linked), 'junction');
      }
    }
    writeFileSync(join(app, 'package.json'), JSON.stringify({ type: 'module' }));
    const file = join(app, 'index.ts');
    // A type (`Task`) is used as one; anything else as a value.
    const use = /^[A-Z]\w*$/.test(name) && !name.endsWith('Schema') ? `export type Use = ${name};` : `void ${name};`;
    const code = `import { ${name} } from '${specifier}';\n${use}\n`;
    writeFileSync(file, code);
    const options = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
    };
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (path) =>
        existsSync(path) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(path) ?? '') : undefined,
      getCurrentDirectory: () => app,
      getCompilationSettings: () => options,
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: (path) => ts.sys.realpath?.(path) ?? path,
    };
    const service = ts.createLanguageService(host, ts.createDocumentRegistry());
    const definitions = service.getDefinitionAtPosition(file, code.lastIndexOf(name)) ?? [];
    expect(definitions).toHaveLength(1);
    // The step tsserver applies to every definition in a declaration file (`getMappedLocation`): the service's source
    // mapper, which reads the declaration's map (a .d.ts.map file or an inline data: URL).
    const mapper = (service as unknown as { getSourceMapper(): SourceMapper }).getSourceMapper();
    const [definition] = definitions as [ts.DefinitionInfo];
    const mapped = mapper.tryGetSourcePosition({ fileName: definition.fileName, pos: definition.textSpan.start });
    expect(mapped && relative(join(work, dir), mapped.fileName)).toMatch(/^src\/.*(?<!\.d)\.ts$/);
    expect(
      readFileSync(mapped?.fileName ?? '', 'utf8')
        .slice(mapped?.pos)
        .startsWith(name),
    ).toBe(true);
  });
});
