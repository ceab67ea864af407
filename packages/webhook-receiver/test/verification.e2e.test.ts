import { createServer } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { generatePushSigningKey, PushSigner, SIGNATURE_HEADER, standardWebhooksSignature } from '@a2a/core';
import { createNodePushSender } from '@a2a/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookReceiver, type WebhookReceiver } from '../src/index.js';
import { chunkedExecutor, startAgent, startReceiver, until } from './servers.js';

const SECRET = `whsec_${Buffer.from('a-standard-webhooks-secret-of-32b').toString('base64')}`;
const ISSUER = 'http://agent.test';

/** One real notification from the agent, captured byte for byte, replayed and altered against real receivers. */
let captured: { body: Buffer; headers: Record<string, string> } | undefined;
let webhook = '';
let signer: PushSigner;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  const key = await generatePushSigningKey('k1');
  signer = new PushSigner({ issuer: ISSUER, keys: [key] });
  const sender = createNodePushSender({
    ssrf: { allow: ['127.0.0.1'] },
    signer,
    standardWebhooksSecret: SECRET,
    retry: { maxAttempts: 1 },
  });
  closers.push(() => sender.close());
  const agent = await startAgent(sender, chunkedExecutor(0));
  closers.push(agent.close);
  const capture = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      captured ??= { body: Buffer.concat(chunks), headers: req.headers as Record<string, string> };
      res.end();
    });
  });
  const { url, close } = await listen(capture);
  closers.push(close);
  webhook = `${url}/hook`;
  await agent.startTask(webhook);
  await until(() => captured !== undefined, 5000, 'a captured notification');
});
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

async function serve(receiver: WebhookReceiver) {
  const rx = await startReceiver(receiver);
  closers.push(rx.close);
  return (body: string | Buffer, headers: Record<string, string>) =>
    fetch(`${rx.url}/hook`, { method: 'POST', headers, body: body as BodyInit });
}

const headersOf = (c: NonNullable<typeof captured>, drop: string[] = []) =>
  Object.fromEntries(
    Object.entries(c.headers).filter(([k]) => !['host', 'content-length', 'connection', ...drop].includes(k)),
  );

describe('receiver verification against a real agent notification', () => {
  it('accepts the genuine JWT-signed notification once; a replay is acknowledged without running handlers', async () => {
    const receiver = createWebhookReceiver({
      token: 'secret-token',
      jwt: { jwks: await signer.jwks(), issuer: ISSUER, audience: webhook },
    });
    let runs = 0;
    receiver.on('statusUpdate', () => void runs++);
    const post = await serve(receiver);
    const c = captured as NonNullable<typeof captured>;
    expect(c.headers['content-type']).toBe('application/a2a+json');
    const first = await post(c.body, headersOf(c));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, duplicate: false });
    const replay = await post(c.body, headersOf(c));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ ok: true, duplicate: true });
    expect(runs).toBe(1);
  });

  it('rejects tampered, forged, expired, mis-addressed and unauthenticated notifications with 401', async () => {
    const receiver = createWebhookReceiver({ jwt: { jwks: await signer.jwks(), issuer: ISSUER, audience: webhook } });
    let runs = 0;
    receiver.on('*', () => void runs++);
    const post = await serve(receiver);
    const c = captured as NonNullable<typeof captured>;
    const tampered = Buffer.from(c.body.toString().replace('TASK_STATE_WORKING', 'TASK_STATE_FAILED'));
    expect((await post(tampered, headersOf(c))).status).toBe(401);

    const attacker = new PushSigner({ issuer: ISSUER, keys: [await generatePushSigningKey('k1')] });
    const forged = await attacker.sign({ body: c.body, audience: webhook, jti: 'forged-1', taskId: 'x' });
    expect((await post(c.body, { ...headersOf(c), [SIGNATURE_HEADER]: forged })).status).toBe(401);

    const old = await signer.sign({
      body: c.body,
      audience: webhook,
      jti: 'old-1',
      taskId: 'x',
      now: Date.now() - 15 * 60_000,
    });
    expect((await post(c.body, { ...headersOf(c), [SIGNATURE_HEADER]: old })).status).toBe(401);

    const elsewhere = await signer.sign({
      body: c.body,
      audience: 'https://other.example/hook',
      jti: 'aud-1',
      taskId: 'x',
    });
    expect((await post(c.body, { ...headersOf(c), [SIGNATURE_HEADER]: elsewhere })).status).toBe(401);

    expect((await post(c.body, headersOf(c, [SIGNATURE_HEADER]))).status).toBe(401);
    expect(runs).toBe(0);
  });

  it('verifies Standard Webhooks HMAC signatures and refuses old timestamps and altered bodies', async () => {
    const receiver = createWebhookReceiver({ standardWebhooks: { secret: SECRET } });
    const post = await serve(receiver);
    const c = captured as NonNullable<typeof captured>;
    expect(c.headers['webhook-signature']).toMatch(/^v1,/);
    expect((await post(c.body, headersOf(c))).status).toBe(200);
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const staleSig = await standardWebhooksSignature(SECRET, 'stale-1', stale, c.body);
    const staleHeaders = {
      ...headersOf(c),
      'webhook-id': 'stale-1',
      'webhook-timestamp': String(stale),
      'webhook-signature': staleSig,
    };
    expect((await post(c.body, staleHeaders)).status).toBe(401);
    expect(
      (await post(Buffer.concat([c.body, Buffer.from(' ')]), { ...headersOf(c), 'webhook-id': 'other' })).status,
    ).toBe(401);
  });

  it('answers 401 for a wrong token, 415 for a wrong type, 400 for a malformed body, and parses v0.3 bodies', async () => {
    const receiver = createWebhookReceiver({ token: 'secret-token' });
    const seen: string[] = [];
    receiver.on('statusUpdate', (n) => void seen.push(`${n.protocolVersion} ${n.payload.status.state}`));
    const post = await serve(receiver);
    const json = { 'content-type': 'application/json', 'x-a2a-notification-token': 'secret-token' };
    expect((await post('{}', { ...json, 'x-a2a-notification-token': 'wrong' })).status).toBe(401);
    expect((await post('{}', { 'content-type': 'application/json' })).status).toBe(401);
    expect((await post('{}', { ...json, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('{not json', json)).status).toBe(400);
    expect((await post('{"statusUpdate":{"taskId":"t"}}', json)).status).toBe(400);
    const v03 = {
      kind: 'status-update',
      taskId: 't1',
      contextId: 'c1',
      final: false,
      status: { state: 'input-required' },
    };
    expect((await post(JSON.stringify(v03), { ...json, 'a2a-notification-id': 'v03-1' })).status).toBe(200);
    expect(seen).toEqual(['0.3 TASK_STATE_INPUT_REQUIRED']);
  });

  it('says how to fix a body that a parser already consumed', async () => {
    const receiver = createWebhookReceiver({ token: 'secret-token' });
    await expect(receiver.verify({ statusUpdate: {} } as never, {})).rejects.toThrow(/express\.raw/);
  });

  it('keeps verifying tokens of the previous key after a rotation (kid)', async () => {
    const next = await generatePushSigningKey('k2');
    const oldKey = (await signer.jwks()).keys[0] as object;
    const rotated = createWebhookReceiver({
      jwt: { jwks: { keys: [{ ...next.publicJwk }, oldKey] }, issuer: ISSUER, audience: webhook },
    });
    const c = captured as NonNullable<typeof captured>;
    const fromOld = await signer.sign({
      body: c.body,
      audience: webhook,
      jti: 'rot-1',
      taskId: JSON.parse(c.body.toString()).statusUpdate.taskId,
    });
    const n = await rotated.verify(c.body, { ...headersOf(c), [SIGNATURE_HEADER]: fromOld });
    expect(n.id).toBe('rot-1');
    const both = new PushSigner({ issuer: ISSUER, keys: [next] });
    expect((await both.jwks()).keys.map((k) => k.kid)).toEqual(['k2']);
  });
});
