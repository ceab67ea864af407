import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Listening } from '@a2a/adapter-testsuite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Report, runCli } from '../src/index.js';
import { BROKEN_AGENTS, galleryHandler } from './broken-agents.js';
import { serveFetch } from './fetch-server.js';

/** Runs the command in-process with collecting streams. */
async function cli(argv: string[], tty = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    stdout: { write: (t: string) => out.push(t), isTTY: tty },
    stderr: { write: (t: string) => err.push(t), isTTY: tty },
    env: {},
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('a2a-check, the command', () => {
  let good: Listening;
  let bad: Listening;
  const dir = mkdtempSync(join(tmpdir(), 'a2a-check-'));
  beforeAll(async () => {
    const a2a = galleryHandler();
    good = await serveFetch((request) => a2a.fetch(request));
    bad = await (
      BROKEN_AGENTS.find((b) => b.caughtBy === 'jsonrpc.task-not-found.get') as (typeof BROKEN_AGENTS)[0]
    ).start();
  });
  afterAll(async () => {
    await good.close();
    await bad.close();
  });

  it('exit 0 for a conforming agent: the report grouped by area, no colour off a terminal, the summary last', async () => {
    const { code, stdout, stderr } = await cli([good.url]);
    expect(code).toBe(0);
    expect(stdout).toContain('\njsonrpc\n  pass  MUST   jsonrpc.parse-error  §9.5 Error Handling');
    expect(stdout).not.toContain('\x1b[');
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^a2a-check: OK: \d+ passed, 0 failed, \d+ skipped in /);
    expect(stderr).toBe('');
  });

  it('on a terminal: a progress line on stderr, cleared at the end, and colour', async () => {
    const { stdout, stderr } = await cli([good.url], true);
    expect(stderr).toContain('[1/');
    expect(stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(stdout).toContain('\x1b[');
  });

  it('exit 1 when a MUST check fails; --junit writes the failure for CI', async () => {
    const file = join(dir, 'report.xml');
    const { code, stdout } = await cli([bad.url, '--junit', file]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/a2a-check: FAIL \(1 MUST check failed\)/);
    const xml = readFileSync(file, 'utf8');
    expect(xml).toMatch(
      /<testcase classname="a2a-check\.jsonrpc" name="jsonrpc\.task-not-found\.get \[MUST\][^"]*" time="[\d.]+">\n {6}<failure message="expected -32001 TaskNotFound, got -32603 &quot;Internal error&quot;">/,
    );
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('exit 2 when the agent cannot be reached, saying why', async () => {
    const gone = await serveFetch(async () => new Response());
    await gone.close();
    const { code, stdout } = await cli([gone.url, '--timeout', '2']);
    expect(code).toBe(2);
    expect(stdout).toMatch(/cannot be reached: .*connection refused/);
  });

  it('--json: stdout is the report alone, the summary line on stderr', async () => {
    const { code, stdout, stderr } = await cli([good.url, '--json', '--binding', 'http+json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.reachable).toBe(true);
    expect(report.results.find((r) => r.id === 'jsonrpc.parse-error')?.status).toBe('skip');
    expect(report.results.find((r) => r.id === 'http+json.list-tasks')?.status).toBe('pass');
    expect(stderr).toMatch(/^a2a-check: OK/);
  });

  it.each([
    [[], /give one agent URL/],
    [['ftp://x'], /not an http\(s\) URL/],
    [['http://127.0.0.1:1', '--binding', 'soap'], /--binding is one of jsonrpc, http\+json, grpc/],
    [['http://127.0.0.1:1', '--timeout', '0'], /--timeout is a number of seconds/],
    [['http://127.0.0.1:1', '--header', 'novalue'], /--header wants "Name: value"/],
    [['http://127.0.0.1:1', '--nope'], /Unknown option '--nope'/],
  ])('bad arguments %j: exit 2 with the reason and the usage', async (argv, reason) => {
    const { code, stderr } = await cli(argv as string[]);
    expect(code).toBe(2);
    expect(stderr).toMatch(reason);
    expect(stderr).toContain('Usage: a2a-check');
  });
});
