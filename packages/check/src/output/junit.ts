import { AREAS } from '../check.js';
import type { Report } from '../report.js';

/** XML text and attribute escaping; characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates) become U+FFFD. */
export function escapeXml(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    out += allowed ? (ENTITIES[char] ?? char) : '\uFFFD';
  }
  return out;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');

/**
 * The report as JUnit XML (`--junit`): one testsuite per area, one testcase per check. A failed MUST or SHOULD check is
 * a <failure> only when it is a MUST (what fails the run); SHOULD/MAY failures are reported as <skipped> with the
 * reason, so CI shows them without going red where the exit code does not.
 */
export function toJUnit(report: Report): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const { summary } = report;
  const failures = report.reachable ? summary.mustFailed : 1;
  lines.push(
    `<testsuites${attrs({ name: `a2a-check ${report.target}`, tests: report.results.length || 1, failures, time: seconds(report.durationMs) })}>`,
  );
  if (!report.reachable) {
    lines.push(`  <testsuite${attrs({ name: 'reach', tests: 1, failures: 1 })}>`);
    lines.push(`    <testcase${attrs({ classname: 'a2a-check.reach', name: 'the agent answers' })}>`);
    lines.push(`      <failure${attrs({ message: report.unreachable ?? 'unreachable' })}/>`);
    lines.push('    </testcase>', '  </testsuite>');
  }
  for (const area of AREAS) {
    const results = report.results.filter((r) => r.area === area);
    if (results.length === 0) continue;
    const failed = results.filter((r) => r.status === 'fail' && r.level === 'MUST').length;
    const skipped = results.length - failed - results.filter((r) => r.status === 'pass').length;
    lines.push(`  <testsuite${attrs({ name: area, tests: results.length, failures: failed, skipped })}>`);
    for (const r of results) {
      const head = `    <testcase${attrs({ classname: `a2a-check.${area}`, name: `${r.id} [${r.level}] ${r.title}`, time: seconds(r.durationMs) })}`;
      const why = `${r.spec}: ${r.detail ?? ''}`;
      if (r.status === 'pass') lines.push(`${head}/>`);
      else if (r.status === 'fail' && r.level === 'MUST')
        lines.push(
          `${head}>`,
          `      <failure${attrs({ message: r.detail ?? 'failed' })}>${escapeXml(why)}</failure>`,
          '    </testcase>',
        );
      else {
        const message = r.status === 'fail' ? `${r.level} not met: ${r.detail}` : (r.detail ?? 'skipped');
        lines.push(`${head}>`, `      <skipped${attrs({ message })}/>`, '    </testcase>');
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);
