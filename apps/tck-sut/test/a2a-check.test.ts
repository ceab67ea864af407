import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkAgent, formatReport } from '@a2a/check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, type RunningSut, startSut } from '../src/server.js';

// The built command, as `npx @a2a/check` runs it (CI builds before testing; a local run without a build skips it).
const BIN = fileURLToPath(new URL('../../../packages/check/dist/cli.js', import.meta.url));
if (!existsSync(BIN) && process.env.CI) throw new Error(`CI=true but ${BIN} is not built`);

// `a2a-check` against the SUT on every adapter, with its gRPC listener: no MUST check fails (the same command CI
// runs against it).
describe.each(ADAPTERS)('a2a-check against the TCK SUT on %s', (adapter) => {
  let sut: RunningSut;
  beforeAll(async () => {
    sut = await startSut({ adapter, port: 0, grpcPort: 0 });
  });
  afterAll(() => sut.close());

  const taskCount = async () => {
    const response = await fetch(`${sut.url}/tasks`, { headers: { 'A2A-Version': '1.0' } });
    return ((await response.json()) as { totalSize: number }).totalSize;
  };

  it('read-only by default: every MUST check passes and no task is created', async () => {
    const report = await checkAgent(sut.url, { timeoutMs: 5000 });
    const failed = report.results.filter((r) => r.status === 'fail' && r.level === 'MUST');
    expect(failed, formatReport(report)).toEqual([]);
    expect(report.results.filter((r) => r.area === 'send').every((r) => r.status === 'skip')).toBe(true);
    // Its gRPC listener (in the card) is checked too: every gRPC check but the --send one ran.
    const grpc = report.results.filter((r) => r.area === 'grpc');
    expect(grpc.filter((r) => r.status === 'pass').map((r) => r.id)).toEqual(
      grpc.map((r) => r.id).filter((id) => id !== 'grpc.streaming'),
    );
    expect(await taskCount()).toBe(0);
  });

  it('with --send and --hostile: every MUST check passes, the send checks ran', async () => {
    const report = await checkAgent(sut.url, { timeoutMs: 5000, send: 'hello', hostile: true });
    const failed = report.results.filter((r) => r.status === 'fail' && r.level === 'MUST');
    expect(failed, formatReport(report)).toEqual([]);
    const ran = (area: string) => report.results.filter((r) => r.area === area && r.status === 'pass').map((r) => r.id);
    expect(ran('send')).toEqual([
      'send.message',
      'send.get-task',
      'send.streaming',
      'send.list-tasks-paging',
      'send.cancel',
    ]);
    expect(ran('hostile')).toHaveLength(4);
    expect(ran('grpc')).toContain('grpc.streaming');
    expect(await taskCount()).toBeGreaterThan(0);
  });

  it('--binding grpc --send: the round trip over gRPC alone passes every check', async () => {
    const report = await checkAgent(sut.url, { timeoutMs: 5000, send: 'hello', binding: 'grpc' });
    const failed = report.results.filter((r) => r.status === 'fail');
    expect(failed, formatReport(report)).toEqual([]);
    const send = report.results.filter((r) => r.area === 'send');
    expect(send.map((r) => [r.id, r.status])).toEqual(send.map((r) => [r.id, 'pass']));
    expect(report.results.find((r) => r.id === 'jsonrpc.list-tasks')?.status).toBe('skip');
  });

  it.runIf(existsSync(BIN))('the a2a-check command exits 0 and writes a JUnit report without a <failure>', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'a2a-check-sut-')), 'report.xml');
    // Asynchronously: the SUT answers from this process.
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, sut.url, '--send', 'hi', '--junit', junit]);
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^a2a-check: OK: /);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testcase classname="a2a-check.send" name="send.message [MUST]');
    expect(xml).not.toContain('<failure');
  });
});
