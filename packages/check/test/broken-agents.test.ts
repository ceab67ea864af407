import { describe, expect, it } from 'vitest';
import { checkAgent, formatReport } from '../src/index.js';
import { BROKEN_AGENTS, galleryHandler, signedAgent, TOKEN } from './broken-agents.js';
import { serveFetch } from './fetch-server.js';
import { GRPC_BROKEN_AGENTS } from './grpc-agents.js';

const failures = (report: Awaited<ReturnType<typeof checkAgent>>) => report.results.filter((r) => r.status === 'fail');

describe('the gallery agents without their defect', () => {
  it('pass every check, --send and --hostile included', async () => {
    const a2a = galleryHandler();
    const agent = await serveFetch((request) => a2a.fetch(request));
    try {
      const report = await checkAgent(agent.url, { send: 'hello', hostile: true, timeoutMs: 5000 });
      expect(failures(report), formatReport(report)).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it('secured: the credentials checks pass with a token, the card stays public', async () => {
    const a2a = galleryHandler(true);
    const agent = await serveFetch((request) => a2a.fetch(request));
    try {
      const report = await checkAgent(agent.url, { headers: { Authorization: TOKEN }, send: 'hi', timeoutMs: 5000 });
      expect(failures(report), formatReport(report)).toEqual([]);
      const security = report.results.filter((r) => r.area === 'security').map((r) => [r.id, r.status]);
      expect(security).toEqual([
        ['security.card-public', 'pass'],
        ['security.credentials-required', 'pass'],
        ['security.www-authenticate', 'pass'],
      ]);
    } finally {
      await agent.close();
    }
  });

  it('signed: card.signature verifies the card against its jku', async () => {
    const agent = await signedAgent(false);
    try {
      const report = await checkAgent(agent.url, { timeoutMs: 5000 });
      expect(report.results.find((r) => r.id === 'card.signature')).toMatchObject({
        status: 'pass',
        detail: 'kid gallery (ES256)',
      });
      expect(failures(report), formatReport(report)).toEqual([]);
    } finally {
      await agent.close();
    }
  });
});

describe.each([...BROKEN_AGENTS, ...GRPC_BROKEN_AGENTS])('broken agent: $defect', (broken) => {
  it(`is caught by ${broken.caughtBy} alone, with a message that says what is wrong`, async () => {
    const agent = await broken.start();
    try {
      const report = await checkAgent(agent.url, { timeoutMs: 5000, ...broken.options });
      const failed = failures(report);
      expect(
        failed.map((r) => r.id),
        formatReport(report),
      ).toEqual([broken.caughtBy]);
      expect(failed[0]?.detail).toMatch(broken.message);
    } finally {
      await agent.close();
    }
  });
});
