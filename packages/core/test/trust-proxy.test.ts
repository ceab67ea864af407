// `trustProxy` on createA2AHandler: the card's URLs from X-Forwarded-Proto/Host, for Fetch hosts that hand the
// handler another URL than the client used (Next.js's `next start`); off by default.
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../src/index.js';
import { card } from './helpers.js';

const executor = { execute: async () => {} };
const forwarded = { 'x-forwarded-host': 'agent.example.com', 'x-forwarded-proto': 'https' };

async function interfaceUrls(trustProxy: boolean | undefined, headers: Record<string, string>, path: string) {
  const a2a = createA2AHandler({
    agentCard: card,
    executor,
    basePath: '/a2a',
    ...(trustProxy !== undefined && { trustProxy }),
  });
  const answer = await a2a.fetch(new Request(`http://localhost:3000${path}`, { headers }));
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { supportedInterfaces: { url: string }[]; url?: string };
  return [...body.supportedInterfaces.map((i) => i.url), ...(body.url ? [body.url] : [])];
}

describe('trustProxy', () => {
  it('builds the card from the forwarded origin when on', async () => {
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const urls = await interfaceUrls(true, forwarded, path);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url.startsWith('https://agent.example.com/a2a')).toBe(true);
    }
  });

  it('keeps the request origin when off (the default), without the headers, or for a host that is not one', async () => {
    for (const [trust, headers] of [
      [undefined, forwarded],
      [false, forwarded],
      [true, {}],
      [true, { 'x-forwarded-host': 'evil.example/path' }],
      [true, { 'x-forwarded-host': 'user@evil.example' }],
    ] as const) {
      for (const url of await interfaceUrls(trust, headers, '/.well-known/agent-card.json')) {
        expect(url.startsWith('http://localhost:3000/a2a'), `${trust} ${JSON.stringify(headers)}`).toBe(true);
      }
    }
  });
});
