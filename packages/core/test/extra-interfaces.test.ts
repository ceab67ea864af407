import { afterEach, describe, expect, it } from 'vitest';
import { card, startServer, type TestServer } from './helpers.js';

// Interfaces served beside the HTTP handler (@a2a/grpc's listener) join its card, and cards for other transports.
let server: TestServer | undefined;
afterEach(() => server?.close());

const executor = { execute: () => {} };
const grpc = { url: '127.0.0.1:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' };
const served = async (s: TestServer) => {
  const response = await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } });
  return { etag: response.headers.get('etag'), card: await response.json() };
};

describe('addInterface / publishCard', () => {
  it('lists an added interface after the HTTP ones (a fresh ETag), and drops it again on removal', async () => {
    server = await startServer({ agentCard: card, executor });
    const before = await served(server);
    const remove = server.a2a.addInterface(grpc);
    const during = await served(server);
    expect(during.card.supportedInterfaces.at(-1)).toEqual(grpc);
    expect(during.card.supportedInterfaces.slice(0, -1)).toEqual(before.card.supportedInterfaces);
    expect(during.etag).not.toBe(before.etag);
    remove();
    remove(); // idempotent
    expect((await served(server)).card).toEqual(before.card);
  });

  it('completes a card for another transport: HTTP interfaces at a base URL, or only the added ones', async () => {
    server = await startServer({ agentCard: card, executor });
    server.a2a.addInterface(grpc);
    const bare = server.a2a.publishCard({ ...card, description: 'extended' });
    expect(bare.supportedInterfaces).toEqual([grpc]);
    expect(bare.defaultInputModes).toEqual(server.a2a.requestHandler.agentCard.defaultInputModes);
    const based = server.a2a.publishCard(card, 'https://agent.example.com');
    expect(based.supportedInterfaces[0]).toMatchObject({
      url: 'https://agent.example.com/',
      protocolBinding: 'JSONRPC',
    });
    expect(based.supportedInterfaces.at(-1)).toEqual(grpc);
  });
});
