import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { isMap, isSeq, type Node, parseDocument } from 'yaml';
import { isRecord } from './assertion-engine.js';
import { type Level, type Violation, validateDocument, validateSuite, validateTest } from './grammar.js';

/**
 * Reads ACTS documents, following `include`, from a directory or from a git snapshot of a2aproject/A2A (`git show
 * <ref>:<path>`, nothing copied). A document that is not valid YAML, or breaks the grammar, does not stop the run:
 * the tests it touches carry their violations and are reported as suite defects.
 */

export interface CorpusSource {
  /** Text of a file by its path (relative to the source's root). */
  read(path: string): string;
  describe(): string;
}

export function directorySource(root: string): CorpusSource {
  return { read: (path) => readFileSync(join(root, path), 'utf8'), describe: () => root };
}

/** A file tree at `ref` of a git directory (bare or not), read with `git show`. */
export function gitSource(gitDir: string, ref: string): CorpusSource {
  return {
    read: (path) =>
      execFileSync('git', ['--git-dir', gitDir, 'show', `${ref}:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20 }),
    describe: () => `${gitDir}@${ref}`,
  };
}

export interface LoadedTest {
  file: string;
  suiteId: string;
  suiteName: string;
  id: string;
  name: string;
  level: Level;
  /** The test as written. */
  test: Record<string, unknown>;
  /** The document's `variables`, merged over the including documents' (the nearer wins). */
  variables: Record<string, string>;
  specVersion: string;
  /** Grammar or YAML problems; a test with any is a suite defect and is not run. */
  violations: Violation[];
}

export interface Corpus {
  source: string;
  actsVersion: string;
  specVersion: string;
  tests: LoadedTest[];
  /** Files that could not be read or parsed at all. */
  problems: { file: string; message: string }[];
}

const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);

export function loadCorpus(source: CorpusSource, entry: string): Corpus {
  const corpus: Corpus = { source: source.describe(), actsVersion: '', specVersion: '', tests: [], problems: [] };
  const seen = new Set<string>();
  const visit = (file: string, inherited: Record<string, string>) => {
    if (seen.has(file)) return;
    seen.add(file);
    let text: string;
    try {
      text = source.read(file);
    } catch (e) {
      corpus.problems.push({ file, message: `cannot read: ${(e as Error).message.split('\n')[0]}` });
      return;
    }
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
    const root = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (!isRecord(root)) {
      corpus.problems.push({ file, message: 'not an ACTS document (the root is not a map)' });
      return;
    }
    // YAML errors land on the test whose node holds them; any outside a test spoils the whole file.
    const testRanges = testNodeRanges(doc.contents);
    const yamlErrors = new Map<number, Violation[]>();
    const fileViolations: Violation[] = [];
    for (const error of doc.errors) {
      const at = error.pos[0];
      const index = testRanges.findIndex(([start, end]) => at >= start && at < end);
      const violation = {
        at: `line ${error.linePos?.[0]?.line ?? '?'}`,
        message: `YAML: ${error.message.split('\n')[0]}`,
      };
      if (index < 0) fileViolations.push(violation);
      else yamlErrors.set(index, [...(yamlErrors.get(index) ?? []), violation]);
    }
    fileViolations.push(...validateDocument(root).map((v) => ({ ...v, at: `document ${v.at}`.trim() })));
    corpus.actsVersion ||= str(root.acts_version, '');
    corpus.specVersion ||= str(root.spec_version, '');
    const variables = { ...inherited, ...(isRecord(root.variables) ? (root.variables as Record<string, string>) : {}) };
    let testIndex = 0;
    for (const suite of Array.isArray(root.suites) ? root.suites : []) {
      const suiteViolations = validateSuite(suite).map((v) => ({ ...v, at: `suite ${v.at}`.trim() }));
      const s = isRecord(suite) ? suite : {};
      for (const test of Array.isArray(s.tests) ? s.tests : []) {
        const t = isRecord(test) ? test : {};
        corpus.tests.push({
          file,
          suiteId: str(s.id, '?'),
          suiteName: str(s.name, str(s.id, '?')),
          id: str(t.id, `${file}#${testIndex}`),
          name: str(t.name, ''),
          level: (['must', 'should', 'may'].includes(t.level as string) ? t.level : 'must') as Level,
          test: t,
          variables,
          specVersion: str(root.spec_version, corpus.specVersion),
          violations: [...fileViolations, ...suiteViolations, ...(yamlErrors.get(testIndex) ?? []), ...validateTest(t)],
        });
        testIndex++;
      }
    }
    for (const include of Array.isArray(root.include) ? root.include : []) {
      if (typeof include === 'string') visit(posix.normalize(posix.join(dirname(file), include)), variables);
    }
  };
  visit(entry, {});
  return corpus;
}

/** [start, end) offsets of every test node, in document order (suites[*].tests[*]). */
function testNodeRanges(contents: unknown): [number, number][] {
  const ranges: [number, number][] = [];
  if (!isMap(contents)) return ranges;
  const suites = contents.get('suites', true);
  if (!isSeq(suites)) return ranges;
  for (const suite of suites.items) {
    if (!isMap(suite)) continue;
    const tests = suite.get('tests', true);
    if (!isSeq(tests)) continue;
    for (const test of tests.items as Node[]) if (test?.range) ranges.push([test.range[0], test.range[2]]);
  }
  return ranges;
}
