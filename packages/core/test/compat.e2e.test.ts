import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalAgentCard } from '../src/card/canonical-card.js';
import {
  type CardSigningKey,
  type Message,
  type StreamResponse,
  signAgentCard,
  type Task,
  verifyAgentCard,
} from '../src/index.js';
import {
  fromV03AgentCard,
  fromV03Message,
  fromV03StreamResult,
  fromV03Task,
  toV03AgentCard,
  toV03Message,
  toV03StreamResult,
  toV03Task,
} from '../src/internal.js';
import { AgentCardSchema } from '../src/schemas/index.js';
import { fixtureExecutor } from './agent-fixture.js';
import { card, sseReader, startServer, type TestServer, userMessage } from './helpers.js';

let s: TestServer;
const fixture = fixtureExecutor();
beforeAll(async () => {
  s = await startServer({
    agentCard: { ...card, capabilities: { ...card.capabilities, extensions: [{ uri: 'urn:x:ext' }] } },
    executor: fixture.executor,
  });
});
afterAll(() => s.close());

const v03Message = (text: string, extra: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: crypto.randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});
const stream = (method: string, params: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'st', method, params }),
  });

describe('one task, two protocol generations', () => {
  it('tells the executor which wire a message arrived on', async () => {
    const v03 = await s.rpc('message/send', { message: v03Message('wire') });
    expect(v03.body.result.parts[0].text).toBe('wire 0.3');
    const v10 = await s.rpc('SendMessage', { message: userMessage('wire') });
    expect(v10.body.result.message.parts[0].text).toBe('wire 1.0');
  });

  it('a v0.3 client sends, a v1.0 client gets and subscribes, and the v0.3 client resubscribes', async () => {
    const sent = await s.rpc('message/send', { message: v03Message('gated x1'), configuration: { blocking: false } });
    const task = sent.body.result;
    expect(task).toMatchObject({ kind: 'task', status: { state: expect.stringMatching(/^(submitted|working)$/) } });

    const got = await s.rpc('GetTask', { id: task.id });
    expect(got.body.result).toMatchObject({ id: task.id, contextId: task.contextId });
    expect(got.body.result.history[0]).toMatchObject({ role: 'ROLE_USER', parts: [{ text: 'gated x1' }] });

    const v1 = sseReader(await stream('SubscribeToTask', { id: task.id }, { 'A2A-Version': '1.0' }));
    const v03 = sseReader(await stream('tasks/resubscribe', { id: task.id }));
    expect(JSON.parse((await v1.next())?.data ?? '').result.task.id).toBe(task.id);
    expect(JSON.parse((await v03.next())?.data ?? '').result).toMatchObject({ kind: 'task', id: task.id });
    fixture.release('x1');
    fixture.release('x1-2');
    const rest1 = (await v1.all()).map((e) => JSON.parse(e.data).result);
    const rest03 = (await v03.all()).map((e) => JSON.parse(e.data).result);
    expect(rest1.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(rest03.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
    // Same events in the same order on both wires.
    expect(rest03).toEqual(rest1.map((r) => toV03StreamResult(r)));
    expect(rest03.filter((e) => e.kind === 'status-update' && e.final)).toHaveLength(1);
  });

  it('a status event that ends a stream (input-required) is final on the v0.3 wire', async () => {
    const events = (await sseReader(await stream('message/stream', { message: v03Message('ask') })).all()).map(
      (e) => JSON.parse(e.data).result,
    );
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'input-required' }, final: true });
  });

  it('echoes activated extensions as X-A2A-Extensions on the v0.3 wire', async () => {
    const r = await s.rpc(
      'message/send',
      { message: v03Message('reply a') },
      { 'X-A2A-Extensions': 'urn:x:ext, urn:unknown' },
    );
    expect(r.headers.get('x-a2a-extensions')).toBe('urn:x:ext');
    expect(r.body.result).toMatchObject({
      kind: 'message',
      role: 'agent',
      parts: [{ kind: 'text', text: 'you said a' }],
    });
  });

  it('answers a v0.3 stream that fails before its first event as SSE; a v1.0 one as plain JSON', async () => {
    const v03 = await stream('tasks/resubscribe', { id: 'nope' });
    expect(v03.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [event] = await sseReader(v03).all();
    expect(JSON.parse(event?.data ?? '{}')).toMatchObject({ id: 'st', error: { code: -32001 } });
    const v10 = await stream('SubscribeToTask', { id: 'nope' });
    expect(v10.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await v10.json()).error.code).toBe(-32001);
  });

  it('tasks/get on an unknown task is -32001 on both wires; batch-free errors keep the id', async () => {
    expect((await s.rpc('tasks/get', { id: 'nope' })).body.error.code).toBe(-32001);
    expect(
      (await s.rpc('tasks/pushNotificationConfig/get', { id: 'nope', pushNotificationConfigId: 'c' })).body.error.code,
    ).toBe(-32001);
  });
});

describe('version negotiation', () => {
  it('accepts the version as a query parameter', async () => {
    const r = await fetch(`${s.url}/?A2A-Version=0.3`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: userMessage('reply x') },
      }),
    });
    const body = await r.json();
    expect(body.error.code).toBe(-32601);
    expect(body.error.message).toContain('read as A2A 0.3');
  });

  it('strict mode reads a header-less request as 0.3', async () => {
    const strict = await startServer({ agentCard: card, executor: fixture.executor, strictVersionHeader: true });
    try {
      const v1 = await strict.rpc('SendMessage', { message: userMessage('reply x') });
      expect(v1.body.error).toMatchObject({ code: -32601, message: expect.stringContaining('no A2A-Version header') });
      expect(
        (await strict.rpc('SendMessage', { message: userMessage('reply x') }, { 'A2A-Version': '1.0' })).body.result
          .message,
      ).toBeTruthy();
      expect((await strict.rpc('message/send', { message: v03Message('reply y') })).body.result.kind).toBe('message');
      const rest = await strict.rest('GET', '/tasks');
      expect(rest.status).toBe(400);
      expect(rest.body.error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
    } finally {
      await strict.close();
    }
  });

  it('legacyVersions: false serves 1.0 only', async () => {
    const only = await startServer({ agentCard: card, executor: fixture.executor, legacyVersions: false });
    try {
      expect((await only.rpc('message/send', { message: v03Message('reply y') })).body.error.code).toBe(-32601);
      expect((await only.rpc('GetTask', { id: 'x' }, { 'A2A-Version': '0.3' })).body.error.code).toBe(-32009);
      const cardBody = await (await fetch(`${only.url}/.well-known/agent-card.json`)).json();
      expect(cardBody.url).toBeUndefined();
      expect(cardBody.supportedInterfaces).toHaveLength(2);
    } finally {
      await only.close();
    }
  });
});

describe('agent cards per version', () => {
  it('header-less requests get the superset card that parses as v1.0 and as v0.3', async () => {
    const r = await fetch(`${s.url}/.well-known/agent-card.json`);
    expect(r.headers.get('vary')).toBe('A2A-Version');
    const body = await r.json();
    expect(AgentCardSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ protocolVersion: '0.3.0', url: `${s.url}/`, preferredTransport: 'JSONRPC' });
    const plain = await (
      await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })
    ).json();
    expect(plain.url).toBeUndefined();
    expect(fromV03AgentCard(body).supportedInterfaces[0]).toEqual({
      url: `${s.url}/`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '0.3',
    });
  });

  it('translates security schemes and requirements to the v0.3 shapes and back', () => {
    const v1 = AgentCardSchema.parse({
      ...card,
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      supportedInterfaces: [{ url: 'https://a.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: {
        key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
        bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      },
      securityRequirements: [{ schemes: { bearer: { list: ['read'] } } }],
    });
    const v03 = toV03AgentCard(v1);
    expect(v03).toMatchObject({
      url: 'https://a.example/rpc',
      supportsAuthenticatedExtendedCard: true,
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
        bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
      },
      security: [{ bearer: ['read'] }],
    });
    expect(fromV03AgentCard(v03)).toEqual(v1);
  });

  it('reads the v0.1 sample card (seed 000) and the v1.0-rc sample card (seed 003)', async () => {
    const { readFile } = await import('node:fs/promises');
    const v01 = JSON.parse(await readFile(new URL('./golden/cards/v01-sample-card.json', import.meta.url), 'utf8'));
    const translated = fromV03AgentCard(v01);
    expect(translated.supportedInterfaces).toEqual([
      { url: 'https://georoute-agent.example.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    expect(translated.skills.map((k) => k.id)).toEqual(['route-optimizer-traffic', 'custom-map-generator']);
    const rc = JSON.parse(await readFile(new URL('./golden/cards/v10rc-sample-card.json', import.meta.url), 'utf8'));
    expect(AgentCardSchema.safeParse(rc).success).toBe(true);
  });
});

describe('lossless round trips v0.3 -> v1.0 -> v0.3', () => {
  const message = {
    kind: 'message' as const,
    messageId: 'm1',
    role: 'agent' as const,
    contextId: 'c',
    taskId: 't',
    metadata: { a: 1 },
    extensions: ['urn:e'],
    referenceTaskIds: ['t0'],
    parts: [
      { kind: 'text' as const, text: 'hi', metadata: { m: true } },
      { kind: 'file' as const, file: { name: 'a.png', mimeType: 'image/png', bytes: 'aGk=' } },
      { kind: 'file' as const, file: { uri: 'https://x.example/f' } },
      { kind: 'data' as const, data: { k: [1, 2] } },
    ],
  };
  const task = {
    kind: 'task' as const,
    id: 't',
    contextId: 'c',
    status: { state: 'auth-required' as const, message, timestamp: '2026-01-01T00:00:00.000Z' },
    artifacts: [
      {
        artifactId: 'a',
        name: 'n',
        description: 'd',
        parts: message.parts,
        metadata: { x: 'y' },
        extensions: ['urn:e'],
      },
    ],
    history: [{ ...message, role: 'user' as const }],
    metadata: { z: null },
  };

  it('keeps every field of messages, tasks and events', () => {
    expect(toV03Message(fromV03Message(message))).toEqual(message);
    expect(toV03Task(fromV03Task(task))).toEqual(task);
    for (const event of [
      task,
      message,
      {
        kind: 'status-update',
        taskId: 't',
        contextId: 'c',
        status: { state: 'working' },
        final: false,
        metadata: { p: 1 },
      },
      { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'rejected' }, final: true },
      {
        kind: 'artifact-update',
        taskId: 't',
        contextId: 'c',
        artifact: task.artifacts[0],
        append: true,
        lastChunk: false,
      },
    ]) {
      expect(toV03StreamResult(fromV03StreamResult(event))).toEqual(event);
    }
  });

  it('carries v1.0 data parts that are not objects through v0.3 and back', () => {
    const v1: Message = { messageId: 'm', role: 'ROLE_USER', parts: [{ data: [1, 'two'] }, { data: 'plain' }] };
    expect(fromV03Message(toV03Message(v1))).toEqual(v1);
    const stream: StreamResponse = {
      task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELED' } } as Task,
    };
    expect(fromV03StreamResult(toV03StreamResult(stream))).toEqual(stream);
  });
});

describe('signed agent cards', () => {
  const keyPair = async (kid: string): Promise<{ signing: CardSigningKey; publicJwk: Record<string, unknown> }> => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256' };
    return { signing: { kid, privateKey, publicJwk }, publicJwk };
  };

  it('canonicalises as the official SDKs do (explicit-presence false kept, empties dropped, JCS, no signatures)', () => {
    const fragment = {
      name: 'Example Agent',
      description: '',
      capabilities: { streaming: false, pushNotifications: false, extensions: [] },
      skills: [],
      signatures: [{ protected: 'x', signature: 'y' }],
    };
    expect(canonicalAgentCard(fragment)).toBe(
      '{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}',
    );
  });

  it('signs with several keys, verifies with either, and rejects tampering and unknown keys with a reason', async () => {
    const [k1, k2, other] = await Promise.all([keyPair('k1'), keyPair('k2'), keyPair('other')]);
    const signed = await signAgentCard(s.a2a.agentCard('https://agent.example'), [
      k1.signing,
      { ...k2.signing, jku: 'https://agent.example/.well-known/jwks.json' },
    ]);
    expect(signed.signatures).toHaveLength(2);
    const header = JSON.parse(Buffer.from(signed.signatures[1]?.protected ?? '', 'base64url').toString());
    expect(header).toEqual({
      alg: 'ES256',
      typ: 'JOSE',
      kid: 'k2',
      jku: 'https://agent.example/.well-known/jwks.json',
    });
    expect(await verifyAgentCard(signed, [k2.publicJwk])).toMatchObject({ valid: true, kid: 'k2' });
    expect(await verifyAgentCard(JSON.parse(JSON.stringify(signed)), { keys: [k1.publicJwk] })).toMatchObject({
      valid: true,
      kid: 'k1',
    });
    const tampered = { ...signed, description: 'Now sends your data elsewhere' };
    const bad = await verifyAgentCard(tampered, [k1.publicJwk, k2.publicJwk]);
    expect(bad).toMatchObject({ valid: false, reason: expect.stringContaining('tampered') });
    expect(await verifyAgentCard(signed, [other.publicJwk])).toMatchObject({
      valid: false,
      reason: expect.stringContaining('no key with this kid'),
    });
    expect(await verifyAgentCard({ ...signed, signatures: [] }, [k1.publicJwk])).toEqual({
      valid: false,
      reason: 'the card has no signatures',
    });
  });

  it('the seed 003 sample signature does not verify against a key it was not made with', async () => {
    const { readFile } = await import('node:fs/promises');
    const rc = JSON.parse(await readFile(new URL('./golden/cards/v10rc-sample-card.json', import.meta.url), 'utf8'));
    const k = await keyPair('key-1');
    const result = await verifyAgentCard(rc, [k.publicJwk]);
    expect(result.valid).toBe(false);
  });

  it('serves signed cards for every variant and the JWKS to verify them (via jku)', async () => {
    const k1 = await keyPair('card-1');
    const signedServer = await startServer({
      agentCard: card,
      executor: fixture.executor,
      signAgentCard: { keys: [k1.signing] },
    });
    try {
      for (const [path, headers] of [
        ['/.well-known/agent-card.json', {}],
        ['/.well-known/agent-card.json', { 'A2A-Version': '1.0' }],
        ['/.well-known/agent.json', {}],
      ] as const) {
        const served = await (await fetch(`${signedServer.url}${path}`, { headers })).json();
        const header = JSON.parse(Buffer.from(served.signatures[0].protected, 'base64url').toString());
        expect(header.jku).toBe(`${signedServer.url}/.well-known/jwks.json`);
        expect(await verifyAgentCard(served, header.jku)).toMatchObject({ valid: true, kid: 'card-1' });
      }
      const jwks = await (await fetch(`${signedServer.url}/.well-known/jwks.json`)).json();
      expect(jwks.keys[0]).not.toHaveProperty('d');
    } finally {
      await signedServer.close();
    }
  });
});
