#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BindingName } from './grammar.js';
import { type CorpusSource, directorySource, gitSource, loadCorpus } from './loader.js';
import { problemLines, summaryLines } from './report.js';
import { readBehaviors, runCorpus } from './run-corpus.js';

/**
 * acts-runner --url http://127.0.0.1:9999 [--snapshot <git dir> [--ref <commit>] | --dir <folder>] [--entry <path>]
 *             [--bindings jsonrpc,rest,grpc] [--auth-token T] [--insufficient-token T] [--behaviors sut-behaviors.yaml] [--filter REGEX]
 *             [--out DIR] [--label NAME]
 * The corpus comes from A2A_ACTS_SNAPSHOT (a git copy of a2aproject/A2A) at A2A_ACTS_REF unless --dir names a folder.
 * Exit status: 0 when every MUST test that ran passed, 1 otherwise, 2 on a setup problem.
 */
export const DEFAULT_REF = 'dbcabfba4f01cc162c965f0fde5f44fc1f1e70e5';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    snapshot: { type: 'string' },
    ref: { type: 'string' },
    dir: { type: 'string' },
    entry: { type: 'string' },
    bindings: { type: 'string' },
    'auth-token': { type: 'string' },
    'insufficient-token': { type: 'string' },
    behaviors: { type: 'string' },
    filter: { type: 'string' },
    out: { type: 'string' },
    label: { type: 'string' },
    concurrency: { type: 'string' },
    verbose: { type: 'boolean' },
  },
});

try {
  if (!values.url) throw new Error('--url <SUT origin> is required');
  const snapshot = values.snapshot ?? process.env.A2A_ACTS_SNAPSHOT;
  let source: CorpusSource;
  if (values.dir) source = directorySource(values.dir);
  else if (snapshot) source = gitSource(snapshot, values.ref ?? process.env.A2A_ACTS_REF ?? DEFAULT_REF);
  else throw new Error('set A2A_ACTS_SNAPSHOT (a git copy of a2aproject/A2A) or pass --dir');
  const entry = values.entry ?? (values.dir ? 'suite.acts.yaml' : 'tests/acts/suite.acts.yaml');
  const corpus = loadCorpus(source, entry);
  for (const p of corpus.problems) console.error(`corpus: ${p.file}: ${p.message}`);
  if (corpus.tests.length === 0) throw new Error(`no tests found in ${corpus.source} ${entry}`);
  const bindings = (values.bindings ?? 'jsonrpc,rest,grpc').split(',').map((b) => b.trim()) as BindingName[];
  const reports = await runCorpus(corpus, {
    baseUrl: values.url,
    bindings,
    ...(values['auth-token'] && { authToken: values['auth-token'] }),
    ...(values['insufficient-token'] && { insufficientAuthToken: values['insufficient-token'] }),
    ...(values.behaviors && { behaviors: readBehaviors(values.behaviors) }),
    ...(values.filter && { filter: new RegExp(values.filter) }),
    ...(values.concurrency && { concurrency: Number(values.concurrency) }),
    environment: {
      runtime: `node ${process.versions.node}`,
      corpus: corpus.source,
      ...(values.label && { label: values.label }),
    },
  });
  let ok = true;
  const label = values.label ? ` ${values.label}` : '';
  for (const report of reports) {
    console.log(`== ACTS${label} ${report.transport} (${corpus.tests.length} tests, ${corpus.source})`);
    for (const line of summaryLines(report)) console.log(`  ${line}`);
    const problems = problemLines(report).filter((l) => values.verbose || !l.trimStart().startsWith('SKIP'));
    for (const line of problems) console.log(line);
    const must = report.summary.by_level.must;
    if (must.failed + must.errors > 0) ok = false;
    if (values.out) {
      mkdirSync(values.out, { recursive: true });
      const stamp = report.generated_at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
      writeFileSync(
        join(values.out, `acts-report-a2a-plugins${label.replace(/\W+/g, '-')}-${report.transport}-${stamp}.json`),
        `${JSON.stringify(report, null, 2)}\n`,
      );
    }
  }
  process.exit(ok ? 0 : 1);
} catch (error) {
  console.error(`acts-runner: ${(error as Error).message}`);
  process.exit(2);
}
