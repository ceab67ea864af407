import { inspect } from 'node:util';
import { AREAS } from '../check.js';
import type { CheckResult, Report } from '../report.js';
import { summaryLine } from '../report.js';

type Style = 'bold' | 'green' | 'red' | 'yellow' | 'gray';

/** ANSI on/off codes, from Node's own table (util.styleText would drop them off a TTY on Node 22+; we decide). */
const ansi = (style: Style, text: string) => {
  const [on, off] = inspect.colors[style] as [number, number];
  return `\x1b[${on}m${text}\x1b[${off}m`;
};

/**
 * The readable report: checks grouped by area, each with its outcome, level and spec section, the reason of a failure
 * or skip under it, and the one-line summary last. `color` only when writing to a terminal.
 */
export function formatReport(report: Report, options: { color?: boolean } = {}): string {
  const paint = (style: Style, text: string) => (options.color ? ansi(style, text) : text);
  const lines: string[] = [];
  if (report.reachable) {
    lines.push(`${paint('bold', 'A2A check')} ${report.target}  (card: ${report.cardUrl})`, '');
    for (const area of AREAS) {
      const results = report.results.filter((r) => r.area === area);
      if (results.length === 0) continue;
      lines.push(paint('bold', area));
      for (const r of results) lines.push(...row(r, paint));
      lines.push('');
    }
  }
  const summary = summaryLine(report);
  lines.push(report.reachable && report.summary.mustFailed === 0 ? paint('green', summary) : paint('red', summary));
  return `${lines.join('\n')}\n`;
}

function row(r: CheckResult, paint: (style: Style, text: string) => string): string[] {
  const mark =
    r.status === 'pass'
      ? paint('green', 'pass')
      : r.status === 'skip'
        ? paint('gray', 'skip')
        : paint(r.level === 'MUST' ? 'red' : 'yellow', 'FAIL');
  const out = [`  ${mark}  ${r.level.padEnd(6)} ${r.id}  ${paint('gray', r.spec)}`];
  if (r.status !== 'pass' || r.detail) {
    const detail = r.status === 'pass' ? r.detail : `${r.status === 'skip' ? 'skipped: ' : ''}${r.detail}`;
    out.push(`        ${r.status === 'fail' ? r.title : ''}${r.status === 'fail' ? ': ' : ''}${detail}`);
  }
  return out;
}
