import { checkAgent, formatReport } from '@a2a/check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, type RunningSut, startSut } from '../src/server.js';

// `a2a-check` against the SUT on every adapter: no MUST check fails (the same command CI runs against it).
describe.each(ADAPTERS)('a2a-check against the TCK SUT on %s', (adapter) => {
  let sut: RunningSut;
  beforeAll(async () => {
    sut = await startSut({ adapter, port: 0 });
  });
  afterAll(() => sut.close());

  it('passes every MUST check', async () => {
    const report = await checkAgent(sut.url, { timeoutMs: 5000 });
    const failed = report.results.filter((r) => r.status === 'fail' && r.level === 'MUST');
    expect(failed, formatReport(report)).toEqual([]);
    if (adapter === 'express') console.log(formatReport(report));
  });
});
