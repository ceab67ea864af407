import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureExecutor } from './agent-fixture.js';
import { card, startServer, type TestServer } from './helpers.js';

// A card without security schemes lets every caller through the handler's check, so the extended card's own refusal
// is the only 401 such an agent gives; RFC 9110 §15.5.2 still requires its WWW-Authenticate challenge.
describe('extended card refused for want of a caller', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      agentCard: { ...card, capabilities: { extendedAgentCard: true } },
      extendedAgentCard: (user) => ({ ...card, name: `Card for ${user.id}` }),
      executor: fixtureExecutor().executor,
    });
  });
  afterAll(() => s.close());

  it('answers 401 with a Bearer challenge on JSON-RPC and HTTP+JSON', async () => {
    const rpc = await s.rpc('GetExtendedAgentCard', {}, { 'a2a-version': '1.0' });
    expect(rpc.status).toBe(401);
    expect(rpc.headers.get('www-authenticate')).toBe('Bearer realm="a2a"');
    const rest = await s.rest('GET', '/extendedAgentCard', undefined, { 'a2a-version': '1.0' });
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toBe('Bearer realm="a2a"');
    expect(rest.body).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('sends no challenge with other errors, nor to a caller', async () => {
    const missing = await s.rest('GET', '/tasks/nope', undefined, { 'a2a-version': '1.0' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('www-authenticate')).toBeNull();
    const ann = await s.rest('GET', '/extendedAgentCard', undefined, { 'a2a-version': '1.0', 'x-user': 'ann' });
    expect(ann.status).toBe(200);
    expect(ann.headers.get('www-authenticate')).toBeNull();
  });
});
