import { describe, expect, it } from 'vitest';
import type { AgentCard } from '../schemas/agent-card.js';
import { VersionedCardRoutes } from './versioned-card-routes.js';

const card = (baseUrl: string) =>
  ({
    name: 'Card test',
    description: 'd',
    version: '1.0.0',
    supportedInterfaces: [{ url: `${baseUrl}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  }) as unknown as AgentCard;

const routes = (build: (baseUrl: string) => AgentCard) =>
  new VersionedCardRoutes(build, { maxAgeSeconds: 60, headerless: 'superset', jwksUrl: (b) => `${b}/jwks` });

describe('VersionedCardRoutes', () => {
  it('makes each card once, shares it between concurrent first requests, and answers conditional GETs with 304', async () => {
    let built = 0;
    const cards = routes((baseUrl) => {
      built++;
      return card(baseUrl);
    });
    const get = (headers: Record<string, string> = {}, method = 'GET') =>
      cards.serve(new Request('http://a.test/.well-known/agent-card.json', { method, headers }), 'http://a.test', 'v1');
    const [first, second] = await Promise.all([get(), get()]);
    expect(built).toBe(1);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') as string;
    expect(second.headers.get('etag')).toBe(etag);
    expect(((await first.json()) as { name: string }).name).toBe('Card test');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');

    const again = get({ 'if-none-match': `W/${etag}` });
    expect(again).toBeInstanceOf(Response); // made already: answered without a promise
    expect((again as Response).status).toBe(304);
    expect((await get({}, 'HEAD')).headers.get('etag')).toBe(etag);
    expect(await (await get({}, 'HEAD')).text()).toBe('');

    await cards.serve(new Request('http://b.test/'), 'http://b.test', 'v1');
    expect(built).toBe(2); // another base URL is another card
  });

  it('does not keep a failed card: the next request makes it again', async () => {
    let calls = 0;
    const cards = routes((baseUrl) => {
      if (++calls === 1) throw new Error('signing service down');
      return card(baseUrl);
    });
    const request = () => cards.serve(new Request('http://a.test/'), 'http://a.test', 'superset');
    await expect(request()).rejects.toThrow('signing service down');
    const response = await request();
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('Card test');
  });

  it('answers each base URL, variant and card generation with its own card, the last one served included', async () => {
    let built = 0;
    const cards = routes((baseUrl) => ({ ...card(baseUrl), name: `Card ${++built}` }) as AgentCard);
    const body = async (baseUrl: string, variant: 'v1' | 'superset') => {
      const response = await cards.serve(new Request(`${baseUrl}/.well-known/agent-card.json`), baseUrl, variant);
      return (await response.json()) as { name: string; supportedInterfaces: { url: string }[] };
    };
    expect((await body('http://a.test', 'v1')).name).toBe('Card 1');
    expect((await body('http://a.test', 'v1')).name).toBe('Card 1');
    expect((await body('http://b.test', 'v1')).supportedInterfaces[0]?.url).toBe('http://b.test/');
    expect((await body('http://b.test', 'v1')).supportedInterfaces[0]?.url).toBe('http://b.test/');
    expect((await body('http://a.test', 'v1')).supportedInterfaces[0]?.url).toBe('http://a.test/');
    expect((await body('http://a.test', 'superset')).name).toBe('Card 3'); // another variant: another card
    expect((await body('http://a.test', 'v1')).name).toBe('Card 1');
    cards.invalidate();
    expect((await body('http://a.test', 'v1')).name).toBe('Card 4'); // made again after the change
    expect((await body('http://a.test', 'v1')).name).toBe('Card 4');
    expect(built).toBe(4);
  });
});
