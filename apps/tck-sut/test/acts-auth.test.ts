import { createServer, type IncomingMessage } from 'node:http';
import { type Listening, listen } from '@a2a/adapter-testsuite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, type RunningSut, startSut } from '../src/server.js';
import {
  type ActsWire,
  grpcWire,
  INSUFFICIENT,
  type Json,
  jsonRpcWire,
  ok,
  restWire,
  userMessage,
  VALID,
} from './acts-wire.js';

// ACTS mode's guards on a real SUT: the extended card behind the runner's tokens (every adapter, every binding), the
// ITK_ACTS_AUTH pass (every operation behind them) and the ITK_ACTS_REDUCED_CAPABILITIES pass.
const GARBAGE = { authorization: 'Bearer not-a-token' };
const cardOf = async (url: string) =>
  (await fetch(`${url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })).json();
const rpc = (url: string, method: string, params: Json, headers: Record<string, string> = {}) =>
  fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'raw', method, params }),
  });

describe.each(ADAPTERS)('ACTS mode on %s: the extended card is guarded, the rest open', (adapter) => {
  let sut: RunningSut;
  beforeAll(async () => {
    sut = await startSut({ adapter, port: 0, acts: {} });
  });
  afterAll(() => sut.close());

  it('GET /extendedAgentCard: 200 for the valid token, 403 for the insufficient one, 401 + challenge otherwise', async () => {
    const get = (headers: Record<string, string> = {}) =>
      fetch(`${sut.url}/extendedAgentCard`, {
        headers: { accept: 'application/json', 'a2a-version': '1.0', ...headers },
      });
    const valid = await get(VALID);
    expect(valid.status).toBe(200);
    expect((await valid.json()).skills.map((s: Json) => s.id)).toContain('tck-extended');
    const insufficient = await get(INSUFFICIENT);
    expect(insufficient.status).toBe(403);
    expect(await insufficient.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    for (const headers of [{}, GARBAGE]) {
      const refused = await get(headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await refused.json()).toMatchObject({
        error: { code: 401, status: 'UNAUTHENTICATED', message: expect.any(String), details: expect.any(Array) },
      });
    }
  });

  it('JSON-RPC GetExtendedAgentCard answers the same rule at the HTTP level', async () => {
    expect((await rpc(sut.url, 'GetExtendedAgentCard', {}, VALID)).status).toBe(200);
    expect((await rpc(sut.url, 'GetExtendedAgentCard', {}, INSUFFICIENT)).status).toBe(403);
    const anonymous = await rpc(sut.url, 'GetExtendedAgentCard', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await anonymous.json()).error.message).toMatch(/authentication|token/i);
  });

  it('keeps the public card and every other operation open, with one owner for tokens and raw steps', async () => {
    const card = await cardOf(sut.url);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true, extendedAgentCard: true });
    expect(card.securitySchemes).toBeUndefined();
    const raw = await (await rpc(sut.url, 'SendMessage', userMessage('tck-complete-task raw'))).json();
    expect(raw.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const read = await (await rpc(sut.url, 'GetTask', { id: raw.result.task.id }, VALID)).json();
    expect(read.result.id).toBe(raw.result.task.id);
  });
});

describe('ACTS mode over gRPC', () => {
  let sut: RunningSut;
  let wire: ActsWire;
  beforeAll(async () => {
    sut = await startSut({ port: 0, grpcPort: 0, acts: {} });
    wire = grpcWire(sut.grpcAddress ?? '');
  });
  afterAll(async () => {
    wire.close();
    await sut.close();
  });

  it('guards GetExtendedAgentCard: card, PERMISSION_DENIED, UNAUTHENTICATED', async () => {
    expect(ok(await wire.call('GetExtendedAgentCard', {}, VALID)).skills.length).toBeGreaterThan(1);
    expect(await wire.call('GetExtendedAgentCard', {}, INSUFFICIENT)).toMatchObject({ ok: false, code: 7 });
    expect(await wire.call('GetExtendedAgentCard', {}, {})).toMatchObject({ ok: false, code: 16 });
    expect(ok(await wire.call('SendMessage', userMessage('tck-complete-task grpc'), {})).task).toBeDefined();
  });
});

describe('ITK_ACTS_AUTH: every operation needs the token', () => {
  let sut: RunningSut;
  let wires: ActsWire[];
  beforeAll(async () => {
    sut = await startSut({ port: 0, grpcPort: 0, acts: { auth: true } });
    wires = [jsonRpcWire(sut.url), restWire(sut.url), grpcWire(sut.grpcAddress ?? '')];
  });
  afterAll(async () => {
    for (const wire of wires) wire.close();
    await sut.close();
  });

  it('declares a bearer scheme and a requirement on the public card, which stays open', async () => {
    const card = await cardOf(sut.url);
    expect(card.securitySchemes.bearerAuth.httpAuthSecurityScheme.scheme).toBe('Bearer');
    expect(card.securityRequirements).toEqual([{ schemes: { bearerAuth: { list: ['acts:use'] } } }]);
  });

  it('answers 401 with a challenge, 403, or the result, on every binding', async () => {
    const [jsonRpc, rest, grpc] = wires as [ActsWire, ActsWire, ActsWire];
    for (const wire of [jsonRpc, rest]) {
      expect(await wire.call('GetTask', { id: 'nope' }, {})).toMatchObject({ ok: false, status: 401 });
      expect(await wire.call('SendMessage', userMessage('tck-complete-task x'), GARBAGE)).toMatchObject({
        status: 401,
      });
      expect(await wire.call('SendMessage', userMessage('tck-complete-task x'), INSUFFICIENT)).toMatchObject({
        ok: false,
        status: 403,
      });
      expect(ok(await wire.call('SendMessage', userMessage('tck-complete-task x'))).task.status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
      expect(await wire.stream('SendStreamingMessage', userMessage('tck-stream-basic x'), {})).toMatchObject({
        ok: false,
        status: 401,
      });
    }
    const anonymous = await rpc(sut.url, 'SendMessage', userMessage('auth should be required'));
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="a2a"');
    expect(await grpc.call('GetTask', { id: 'nope' }, {})).toMatchObject({ ok: false, code: 16 });
    expect(await grpc.call('GetTask', { id: 'nope' }, INSUFFICIENT)).toMatchObject({ ok: false, code: 7 });
    expect(ok(await grpc.call('SendMessage', userMessage('tck-complete-task x'))).task).toBeDefined();
    // The extended card keeps its own rule.
    expect(await rest.call('GetExtendedAgentCard', {}, INSUFFICIENT)).toMatchObject({ ok: false, status: 403 });
    expect(ok(await rest.call('GetExtendedAgentCard', {})).skills.length).toBeGreaterThan(1);
  });
});

describe('ITK_ACTS_REDUCED_CAPABILITIES: no streaming, push or extended card', () => {
  let sut: RunningSut;
  let wires: ActsWire[];
  beforeAll(async () => {
    sut = await startSut({ port: 0, grpcPort: 0, acts: { reducedCapabilities: true } });
    wires = [jsonRpcWire(sut.url), restWire(sut.url), grpcWire(sut.grpcAddress ?? '')];
  });
  afterAll(async () => {
    for (const wire of wires) wire.close();
    await sut.close();
  });

  it('advertises them false', async () => {
    const card = await cardOf(sut.url);
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false, extendedAgentCard: false });
  });

  it('refuses them: UnsupportedOperation for streams and the extended card, PushNotificationNotSupported for push', async () => {
    // JSON-RPC codes; HTTP+JSON's 400 with the ErrorInfo reason; gRPC FAILED_PRECONDITION (v1.0.1's table).
    const expected = { jsonrpc: [-32004, -32003], rest: [400, 400], grpc: [9, 9] };
    for (const wire of wires) {
      const [unsupported, noPush] = expected[wire.name];
      const task = ok(await wire.call('SendMessage', userMessage('tck-complete-task for push'))).task;
      expect(
        await wire.stream('SendStreamingMessage', userMessage('tck-complete-task streaming unsupported')),
      ).toMatchObject({
        ok: false,
        code: unsupported,
      });
      expect(await wire.stream('SubscribeToTask', { id: task.id })).toMatchObject({ ok: false, code: unsupported });
      expect(await wire.call('GetExtendedAgentCard', {})).toMatchObject({ ok: false, code: unsupported });
      const push = { taskId: task.id, url: 'https://example.com/webhooks/a2a-tests' };
      expect(await wire.call('CreateTaskPushNotificationConfig', push)).toMatchObject({ ok: false, code: noPush });
    }
  });
});

describe('ACTS mode: push to the runner receiver on 127.0.0.1', () => {
  let sut: RunningSut;
  let receiving: Listening;
  const received: { headers: IncomingMessage['headers']; body: Json }[] = [];
  const receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) });
      res.writeHead(200).end();
    });
  });
  beforeAll(async () => {
    sut = await startSut({ port: 0, acts: {}, longRunningMs: 300 });
    receiving = await listen(receiver);
  });
  afterAll(async () => {
    await receiving?.close();
    await sut.close();
  });

  it('delivers the task updates with the config token and the bearer credentials', async () => {
    const wire = jsonRpcWire(sut.url);
    const url = `${receiving.url}/notifications`;
    const task = ok(
      await wire.call('SendMessage', {
        ...userMessage('tck-long-running start'),
        configuration: { returnImmediately: true },
      }),
    ).task;
    const config = ok(
      await wire.call('CreateTaskPushNotificationConfig', {
        taskId: task.id,
        url,
        token: 'receiver-token',
        authentication: { scheme: 'Bearer', credentials: 'test-token' },
      }),
    );
    expect(config).toMatchObject({ id: expect.any(String), url });
    const until = Date.now() + 10_000;
    const completed = () =>
      received.find(
        (r) => JSON.stringify(r.body).includes('TASK_STATE_COMPLETED') && JSON.stringify(r.body).includes(task.id),
      );
    while (!completed() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(completed()?.headers).toMatchObject({
      authorization: 'Bearer test-token',
      'x-a2a-notification-token': 'receiver-token',
    });
  });
});
