import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSut, startSut } from '../src/server.js';

// GRPC_PORT: the same agent over gRPC on 127.0.0.1, listed in the card, with the v1.0 kit's status table on request.
describe('TCK SUT with gRPC', () => {
  let sut: RunningSut;
  beforeAll(async () => {
    sut = await startSut({ port: 0, grpcPort: 0, grpcV100Codes: true });
  });
  afterAll(() => sut.close());

  it('lists the GRPC interface (127.0.0.1:port) and answers there', async () => {
    const card = await (
      await fetch(`${sut.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json();
    expect(sut.grpcAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(card.supportedInterfaces).toContainEqual({
      url: sut.grpcAddress,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
    const client = new Client(sut.grpcAddress ?? '', credentials.createInsecure());
    const metadata = new Metadata();
    metadata.set('a2a-version', '99.0');
    const error = await new Promise<ServiceError>((resolve) =>
      client.makeUnaryRequest(
        '/lf.a2a.v1.A2AService/ListTasks',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        metadata,
        (e) => resolve(e as ServiceError),
      ),
    );
    client.close();
    expect(error.details).toMatch(/99\.0/);
    expect(error.code).toBe(12); // UNIMPLEMENTED, the v1.0.0 table the kit checks
  });
});
