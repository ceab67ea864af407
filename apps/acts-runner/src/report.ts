import type { BindingName, Level } from './grammar.js';
import type { LoadedTest } from './loader.js';
import type { Outcome, TestResult } from './test-runner.js';

/** The ACTS JSON report (§13) of one binding, and the per-level summary (§12.7). */

export interface LevelSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
}

export interface ActsReport {
  acts_version: string;
  spec_version: string;
  generated_at: string;
  sdk: { name: string; version: string; language: string; repository?: string };
  transport: BindingName;
  environment?: Record<string, string>;
  summary: LevelSummary & { duration_ms: number; by_level: Record<Level, LevelSummary> };
  suites: { id: string; name: string; tests: TestResult[] }[];
}

const empty = (): LevelSummary => ({ total: 0, passed: 0, failed: 0, skipped: 0, errors: 0 });
const KEY: Record<Outcome, keyof LevelSummary> = { pass: 'passed', fail: 'failed', skip: 'skipped', error: 'errors' };

export function buildReport(options: {
  actsVersion: string;
  specVersion: string;
  binding: BindingName;
  tests: LoadedTest[];
  results: TestResult[];
  durationMs: number;
  environment?: Record<string, string>;
}): ActsReport {
  const byLevel: Record<Level, LevelSummary> = { must: empty(), should: empty(), may: empty() };
  const total = empty();
  const suites = new Map<string, { id: string; name: string; tests: TestResult[] }>();
  options.results.forEach((result, i) => {
    const test = options.tests[i] as LoadedTest;
    for (const s of [total, byLevel[result.level]]) {
      s.total++;
      s[KEY[result.result]]++;
    }
    const suite = suites.get(test.suiteId) ?? { id: test.suiteId, name: test.suiteName, tests: [] };
    suite.tests.push(result);
    suites.set(test.suiteId, suite);
  });
  return {
    acts_version: options.actsVersion,
    spec_version: options.specVersion,
    generated_at: new Date().toISOString(),
    sdk: {
      name: 'a2a-plugins',
      version: '0.0.0',
      language: 'typescript',
      repository: 'https://github.com/a2a-plugins/a2a-plugins',
    },
    transport: options.binding,
    ...(options.environment && { environment: options.environment }),
    summary: { ...total, duration_ms: options.durationMs, by_level: byLevel },
    suites: [...suites.values()],
  };
}

/** `MUST:   45/47 passed (1 failed, 1 skipped)` lines. */
export function summaryLines(report: ActsReport): string[] {
  return (['must', 'should', 'may'] as const).map((level) => {
    const s = report.summary.by_level[level];
    const extra = [
      s.failed && `${s.failed} failed`,
      s.errors && `${s.errors} errors`,
      s.skipped && `${s.skipped} skipped`,
    ].filter(Boolean);
    return `${`${level.toUpperCase()}:`.padEnd(8)}${String(s.passed).padStart(3)}/${s.total} passed${extra.length ? ` (${extra.join(', ')})` : ''}`;
  });
}

/** One line per test that did not pass, with its category. */
export function problemLines(report: ActsReport): string[] {
  const lines: string[] = [];
  for (const suite of report.suites) {
    for (const t of suite.tests) {
      if (t.result === 'pass') continue;
      const why =
        t.result === 'skip'
          ? t.skip_reason
          : `${t.failure?.step_id ? `[${t.failure.step_id}] ` : ''}${t.failure?.message}`;
      lines.push(
        `  ${t.result.toUpperCase().padEnd(5)} ${t.level.padEnd(6)} ${t.id}${t.category && t.result !== 'skip' ? ` {${t.category}}` : ''}: ${why}`,
      );
    }
  }
  return lines;
}
