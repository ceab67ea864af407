import type { Area, Level } from './check.js';

/** One check's outcome in a report. */
export interface CheckResult {
  id: string;
  area: Area;
  level: Level;
  spec: string;
  title: string;
  status: 'pass' | 'fail' | 'skip';
  detail?: string;
  durationMs: number;
}

/** What `checkAgent` returns; `--json` prints it as is. */
export interface Report {
  /** The URL asked for. */
  target: string;
  /** Where the card was found (absent when it was not). */
  cardUrl?: string;
  /** False when no card could be read: `unreachable` says why, and there are no results (exit code 2). */
  reachable: boolean;
  unreachable?: string;
  results: CheckResult[];
  summary: { pass: number; fail: number; skip: number; mustFailed: number };
  durationMs: number;
}

export function summarize(results: CheckResult[]): Report['summary'] {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  return {
    pass: count('pass'),
    fail: count('fail'),
    skip: count('skip'),
    mustFailed: results.filter((r) => r.status === 'fail' && r.level === 'MUST').length,
  };
}

/** 2: the agent could not be reached; 1: a MUST check failed; 0 otherwise (SHOULD/MAY failures are reported only). */
export function exitCode(report: Report): 0 | 1 | 2 {
  if (!report.reachable) return 2;
  return report.summary.mustFailed > 0 ? 1 : 0;
}

/** The one-line summary printed last. */
export function summaryLine(report: Report): string {
  if (!report.reachable) return `a2a-check: ${report.target} cannot be reached: ${report.unreachable}`;
  const { pass, fail, skip, mustFailed } = report.summary;
  const verdict = mustFailed > 0 ? `FAIL (${mustFailed} MUST check${mustFailed === 1 ? '' : 's'} failed)` : 'OK';
  return `a2a-check: ${verdict}: ${pass} passed, ${fail} failed, ${skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s`;
}
