import { describe, expect, it } from 'vitest';
import { type LoadRow, renderReport } from '../src/report.js';

const summary = (rps: number) => ({ rps, p50: 1, p99: 2, ok: rps, failed: 0 });
const row = (adapter: string, scenario: string, xRaw: number): LoadRow => ({
  adapter,
  scenario,
  result: summary(1000 * xRaw),
  raw: summary(1000),
  xRaw,
});
const target = (report: string, adapter: string, scenario: string) =>
  report
    .split('\n')
    .find((line) => line.startsWith(`| ${adapter} | ${scenario} |`))
    ?.split('|')
    .at(-2)
    ?.trim();

describe('bench report targets', () => {
  it("prints issue 39's targets for the slower frameworks and issue 30's for the others", () => {
    const report = renderReport({
      when: 'now',
      machine: 'test',
      options: {},
      memory: [],
      load: [
        row('koa', 'send', 0.62),
        row('koa', 'stream', 0.38),
        row('hapi', 'send', 0.72),
        row('hapi', 'stream', 0.5),
        row('express', 'send', 0.74),
        row('nestjs', 'stream', 0.51),
        row('hapi', 'card', 1.25),
        row('fastify', 'send', 0.76),
        row('sdk', 'send', 0.2),
      ],
    });
    expect(target(report, 'koa', 'send')).toBe('≥ 0.6 ✅');
    expect(target(report, 'koa', 'stream')).toBe('≥ 0.4 ❌');
    expect(target(report, 'hapi', 'send')).toBe('≥ 0.7 ✅');
    expect(target(report, 'hapi', 'stream')).toBe('≥ 0.5 ✅');
    expect(target(report, 'express', 'send')).toBe('≥ 0.75 ❌');
    expect(target(report, 'nestjs', 'stream')).toBe('≥ 0.5 ✅');
    expect(target(report, 'hapi', 'card')).toBe('≥ 1.3 ❌');
    expect(target(report, 'fastify', 'send')).toBe('≥ 0.75 ✅');
    expect(target(report, 'sdk', 'send')).toBe('');
  });
});
