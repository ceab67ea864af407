import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSut, startSut } from '../../tck-sut/src/server.js';
import { directorySource, loadCorpus } from '../src/loader.js';
import { runCorpus } from '../src/run-corpus.js';

// Synthetic ACTS tests (test/fixtures/e2e) against the real SUT on Express, 127.0.0.1 port 0, all three bindings.
let sut: RunningSut;
beforeAll(async () => {
  sut = await startSut({ adapter: 'express', port: 0, grpcPort: 0, headerlessCard: 'v1' });
});
afterAll(async () => {
  await sut?.close();
});

describe('acts-runner against apps/tck-sut (express)', () => {
  it('passes the synthetic corpus on JSON-RPC, HTTP+JSON and gRPC', async () => {
    const corpus = loadCorpus(
      directorySource(fileURLToPath(new URL('./fixtures/e2e', import.meta.url))),
      'suite.acts.yaml',
    );
    const reports = await runCorpus(corpus, {
      baseUrl: sut.url,
      bindings: ['jsonrpc', 'rest', 'grpc'],
      streamTimeoutMs: 10_000,
    });
    const outcomes = Object.fromEntries(
      reports.map((r) => [
        r.transport,
        Object.fromEntries(
          r.suites.flatMap((s) => s.tests.map((t) => [t.id, t.failure?.message ?? t.skip_reason ?? t.result])),
        ),
      ]),
    );
    const all = {
      'E2E-CARD': 'pass',
      'E2E-SEND-GET': 'pass',
      'E2E-ERR': 'pass',
      'E2E-CANCEL-TERMINAL': 'pass',
      'E2E-STREAM': 'pass',
      'E2E-CLIENT': 'pass',
    };
    expect(outcomes).toEqual({
      jsonrpc: { ...all, 'E2E-RAW-JSONRPC': 'pass' },
      rest: { ...all, 'E2E-RAW-JSONRPC': 'transport: only for jsonrpc' },
      grpc: { ...all, 'E2E-RAW-JSONRPC': 'transport: only for jsonrpc' },
    });
    for (const r of reports)
      expect(r.summary.by_level.must).toEqual({ total: 5, passed: 5, failed: 0, skipped: 0, errors: 0 });
  });
});

describe('acts-runner against apps/tck-sut in ITK_ACTS_AUTH mode (express)', () => {
  let authSut: RunningSut;
  const authCorpus = () =>
    loadCorpus(directorySource(fileURLToPath(new URL('./fixtures/e2e-auth', import.meta.url))), 'suite.acts.yaml');
  beforeAll(async () => {
    authSut = await startSut({ adapter: 'express', port: 0, headerlessCard: 'v1', acts: { auth: true } });
  });
  afterAll(async () => {
    await authSut?.close();
  });

  it('reads capabilities.authentication from the card, sends the token on operations only', async () => {
    const corpus = authCorpus();
    const [report] = await runCorpus(corpus, {
      baseUrl: authSut.url,
      bindings: ['jsonrpc'],
      authToken: 'itk-valid-token',
      insufficientAuthToken: 'itk-insufficient-token',
    });
    const outcomes = Object.fromEntries(
      (report?.suites ?? []).flatMap((s) =>
        s.tests.map((t) => [t.id, t.failure?.message ?? t.skip_reason ?? t.result]),
      ),
    );
    expect(outcomes).toEqual({
      'AUTH-RAW-NONE': 'pass',
      'AUTH-RAW-INSUFFICIENT': 'pass',
      'AUTH-OPERATION': 'pass',
      'AUTH-CLIENT': 'pass',
      'NO-AUTH-ONLY': expect.stringMatching(
        /^precondition: capabilities\.authentication needs false; the card declares/,
      ),
    });
  });

  it('without the token every operation is refused, a client step included', async () => {
    const corpus = authCorpus();
    const [report] = await runCorpus(corpus, {
      baseUrl: authSut.url,
      bindings: ['jsonrpc'],
      filter: /^AUTH-(OP|CLIENT)/,
    });
    const failures = (report?.suites ?? []).flatMap((s) => s.tests.map((t) => t.failure?.message));
    expect(failures).toEqual([
      expect.stringMatching(/TaskNotFoundError.*HTTP 401/),
      expect.stringMatching(/^tck-client-parse: the SUT refused the request: .*HTTP 401/),
    ]);
  });
});
