import { readFileSync } from 'node:fs';
import { createA2AHandler } from '@a2a/core';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AGrpcServer } from '../src/index.js';
import { card, type Harness, startHarness, testExecutor, userMessage } from './harness.js';
import { EMPTY_SETTINGS, PREFACE, rawSocket } from './raw-connections.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('connections that never make a call are closed', () => {
  it('silent, half a preface, not HTTP/2, or the preface and nothing else: closed; calls still work', async () => {
    h = await startHarness({ grpc: { connectionTimeoutMs: 100, idleTimeoutMs: 200 } });
    const sockets = await Promise.all([
      rawSocket(h.address),
      rawSocket(h.address, PREFACE.subarray(0, 12)),
      rawSocket(h.address, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')),
      rawSocket(h.address, PREFACE), // past the preface deadline: the idle timeout closes it
      rawSocket(h.address, Buffer.concat([PREFACE, EMPTY_SETTINGS])),
    ]);
    await Promise.all(sockets.map((s) => s.closed));
    await expect(h.client.unary('SendMessage', userMessage('after'))).resolves.toHaveProperty('task');
  });

  it('a connection with an open stream is not idle; once the calls end, the idle one is closed', async () => {
    const agent = testExecutor();
    h = await startHarness({ executor: agent.executor, grpc: { idleTimeoutMs: 150 } });
    const stream = h.client.stream('SendStreamingMessage', userMessage('gated idle'));
    const events: unknown[] = [];
    stream.on('data', (e) => events.push(e));
    await expect.poll(() => events.length).toBeGreaterThan(0);
    let ended = false;
    stream.on('end', () => {
      ended = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 400)); // past idleTimeoutMs with the stream open
    expect(ended).toBe(false);
    agent.release('idle');
    await expect.poll(() => ended).toBe(true);
    // The channel reconnects after the server's GOAWAY.
    await expect(h.client.unary('ListTasks', {})).resolves.toBeDefined();
  });

  it('close() also closes connections still within the preface deadline', async () => {
    h = await startHarness({ grpc: { connectionTimeoutMs: 60_000 } });
    const silent = await rawSocket(h.address);
    await h.grpc.close({ timeoutMs: 100 });
    await silent.closed;
  });
});

describe('maxConnections', () => {
  it('closes connections past the cap at accept; a freed slot serves again', async () => {
    h = await startHarness({ grpc: { maxConnections: 2, connectionTimeoutMs: 60_000 } });
    const held = await Promise.all([rawSocket(h.address), rawSocket(h.address, PREFACE.subarray(0, 3))]);
    const third = await rawSocket(h.address, PREFACE);
    await third.closed;
    expect(held.map((s) => s.socket.closed)).toEqual([false, false]);
    for (const s of held) s.socket.destroy();
    const address = h.address;
    const { a2aClient } = await import('./harness.js');
    await expect
      .poll(async () => {
        const client = a2aClient(address);
        const ok = await client.unary('ListTasks', {}).then(
          () => true,
          () => false,
        );
        client.close();
        return ok;
      })
      .toBe(true);
  });
});

describe('TLS', () => {
  const key = readFileSync(new URL('./fixtures/tls/server.key', import.meta.url));
  const cert = readFileSync(new URL('./fixtures/tls/server.crt', import.meta.url)); // test-only, self-signed

  it('serves over TLS through the guarded listener; a silent TLS connection is closed', async () => {
    const http = createA2AHandler({ agentCard: card, executor: testExecutor().executor, onError: () => {} });
    const server = createA2AGrpcServer(http, {
      credentials: grpc.ServerCredentials.createSsl(null, [{ private_key: key, cert_chain: cert }]),
      connectionTimeoutMs: 100,
      onError: () => {},
    });
    const { port } = await server.listen();
    const client = new grpc.Client(`localhost:${port}`, grpc.credentials.createSsl(cert));
    try {
      const response = await new Promise<Buffer>((resolve, reject) =>
        client.makeUnaryRequest(
          '/lf.a2a.v1.A2AService/ListTasks',
          () => Buffer.alloc(0),
          (b: Buffer) => b,
          {},
          (error, value) => (error ? reject(error) : resolve(value as Buffer)),
        ),
      );
      expect(response).toBeInstanceOf(Buffer);
      const silent = await rawSocket(`127.0.0.1:${port}`);
      const cleartext = await rawSocket(`127.0.0.1:${port}`, PREFACE);
      await Promise.all([silent.closed, cleartext.closed]);
    } finally {
      client.close();
      await server.close({ timeoutMs: 100 });
      await http.close({ timeoutMs: 100 });
    }
  });
});
