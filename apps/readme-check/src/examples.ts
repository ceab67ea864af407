import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// The README convention (docs/readme-examples.md): an HTML comment on the line right before a fenced block marks it,
//   <!-- example file=server.ts run=express -->   written verbatim to server.ts and run in every Express project
//   <!-- example file=agent.ts -->                a module the README's programs import (`./agent.js`)
// Modules of core's README are shared with every README's programs. Unmarked blocks are not run, but a block that
// starts a server (`.listen(` / `.start(`) must be marked: the check fails on an unmarked one.

export interface Block {
  /** README path relative to the repository root. */
  readme: string;
  /** 1-based line of the block's first code line in the README. */
  line: number;
  file: string;
  /** Projects or families (e.g. `express`, `koa3`) to run it in; empty for a module. */
  run: string[];
  /** A client program (`client=express5`): run in that project against each of its running servers (`AGENT_URL`). */
  client?: string[];
  /**
   * `commonjs=commonjs`: in CommonJS twins, only those compiled with one of these `module` settings (`commonjs`,
   * `node16`) compile and run the block; ES module projects always do. Unset: every twin.
   */
  commonjs?: string[];
  code: string;
}

export interface Program {
  /** Directory of the program inside a framework project, unique per README and entry file. */
  dir: string;
  entry: Block;
  /** The entry and every module it may import, by file name. */
  files: Block[];
}

const MARKER = /^<!--\s*example\s+(.*?)\s*-->\s*$/;
const FENCE = /^(```+|~~~+)\s*(\S*)/;
const SERVER_START = /\.listen\(|\.start\(\)/;

export interface ReadmeScan {
  blocks: Block[];
  /** Problems with the markers themselves, each naming README and line. */
  problems: string[];
}

export function scanReadme(root: string, path: string): ReadmeScan {
  const readme = relative(root, path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: Block[] = [];
  const problems: string[] = [];
  let pending: { attrs: Record<string, string>; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const marker = MARKER.exec(text);
    if (marker) {
      pending = { attrs: parseAttrs(marker[1] ?? ''), line: i + 1 };
      continue;
    }
    const fence = FENCE.exec(text);
    if (!fence) {
      if (pending && text.trim() !== '') {
        problems.push(`${readme}:${pending.line}: an example marker must be followed by a code block`);
        pending = undefined;
      }
      continue;
    }
    const close = fence[1] ?? '```';
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith(close)) end++;
    const code = lines.slice(start, end).join('\n');
    const lang = fence[2] ?? '';
    if (pending) {
      const file = pending.attrs.file;
      if (!file || !/^[\w.-]+\.ts$/.test(file)) {
        problems.push(`${readme}:${pending.line}: an example marker needs file=<name>.ts`);
      } else {
        const client = splitList(pending.attrs.client);
        const commonjs = splitList(pending.attrs.commonjs);
        blocks.push({
          readme,
          line: start + 1,
          file,
          run: splitList(pending.attrs.run),
          ...(client.length ? { client } : {}),
          ...(commonjs.length ? { commonjs } : {}),
          code: `${code}\n`,
        });
      }
    } else if (/^(ts|typescript|js|javascript)$/.test(lang) && SERVER_START.test(code)) {
      problems.push(
        `${readme}:${start + 1}: this block starts a server but has no <!-- example file=… run=… --> marker ` +
          '(docs/readme-examples.md): every server example must run in the README check',
      );
    }
    pending = undefined;
    i = end;
  }
  return { blocks, problems };
}

const isModule = (b: Block) => b.run.length === 0 && !b.client;

/**
 * Programs to run: one per entry block, with the modules of its README and of the shared README (core's, whose quick
 * start is the `agent.ts` every adapter README imports: what a user reading the packages on npm has).
 */
export function programsOf(
  blocks: Block[],
  sharedReadme = 'packages/core/README.md',
  isEntry: (b: Block) => boolean = (b) => b.run.length > 0,
): Program[] {
  return blocks.filter(isEntry).map((entry) => {
    const modules = blocks.filter((b) => isModule(b) && (b.readme === entry.readme || b.readme === sharedReadme));
    // A README's own module wins over the shared README's module of the same name.
    const byFile = new Map<string, Block>();
    for (const m of modules.sort((a, b) => Number(a.readme === entry.readme) - Number(b.readme === entry.readme))) {
      byFile.set(m.file, m);
    }
    byFile.set(entry.file, entry);
    const dir = `${entry.readme.replace(/(^|\/)README\.md$/i, '').replace(/[^\w]+/g, '-') || 'root'}--${entry.file.replace(/\.ts$/, '')}`;
    return { dir, entry, files: [...byFile.values()] };
  });
}

/** Client programs (`client=`): run against the servers of the projects they name. */
export const clientsOf = (blocks: Block[], sharedReadme?: string): Program[] =>
  programsOf(blocks, sharedReadme, (b) => Boolean(b.client?.length));

/** The root README and each published package's (a package without one has nothing to run). */
export function readmePaths(root: string, packageDirs: string[]): string[] {
  return [join(root, 'README.md'), ...packageDirs.map((d) => join(d, 'README.md'))].filter((p) => existsSync(p));
}

function parseAttrs(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)=("[^"]*"|\S+)/g)) attrs[m[1] ?? ''] = (m[2] ?? '').replace(/^"|"$/g, '');
  return attrs;
}

function splitList(value: string | undefined): string[] {
  return value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** Whether the code awaits at the top level (`await`, `for await`), outside any function or class. */
function awaitsAtTopLevel(node: ts.Node): boolean {
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) return true;
  return ts.forEachChild(node, awaitsAtTopLevel) ?? false;
}

/**
 * The block as a CommonJS user writes it (the READMEs: "in CommonJS wrap it in an `async` function"): with top-level
 * `await`, everything after the imports goes into `async function main() { … }`, called with its rejection printed
 * and exit code 1 (what an ES module's failed top-level await does). The opening goes right after the last import,
 * on its line, and the closing after the last line, so every statement keeps its README line and column. Code without
 * top-level await is returned as is.
 */
export function wrapForCommonJS(code: string): string {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true);
  if (!source.statements.some(awaitsAtTopLevel)) return code;
  const body = source.statements.filter((s) => !ts.isImportDeclaration(s) && !ts.isImportEqualsDeclaration(s));
  const first = body[0];
  if (!first) return code;
  const at = first.getFullStart();
  return (
    `${code.slice(0, at)} async function main() {${code.slice(at).replace(/\n*$/, '')}\n}\n` +
    'main().catch((err) => {\n  console.error(err);\n  process.exit(1);\n});\n'
  );
}
