import { createServer, type Server } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { generatePushSigningKey, PushSigner } from '@a2a/core';
import { createNodePushSender, toWebRequest } from '@a2a/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnyNotification, createWebhookReceiver } from '../src/index.js';
import { AGENT_ISSUER, chunkedExecutor, startAgent, startReceiver, trustingReceiver, until } from './servers.js';

const fast = { retry: { baseDelayMs: 10, maxDelayMs: 40, maxAttempts: 200 }, timeoutMs: 1000 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('push delivery between two real servers', () => {
  it('delivers every event of a task in order, signed and with the token', async () => {
    const key = await generatePushSigningKey('k1');
    const sender = createNodePushSender({
      ...fast,
      ssrf: { allow: ['127.0.0.1'] },
      signer: new PushSigner({ issuer: AGENT_ISSUER, keys: [key] }),
    });
    cleanups.push(() => sender.close());
    const agent = await startAgent(sender, chunkedExecutor(6));
    cleanups.push(agent.close);
    const webhookPath = '/hooks/a2a';
    const got: AnyNotification[] = [];
    // The JWT audience is the webhook URL, known once the receiver listens.
    let receiver = createWebhookReceiver({ allowUnauthenticated: true });
    const rx = await startReceiver(() => receiver);
    cleanups.push(rx.close);
    const webhook = `${rx.url}${webhookPath}`;
    receiver = trustingReceiver(agent.url, webhook);
    receiver.on('*', (n) => void got.push(n));

    const taskId = await agent.startTask(webhook);
    await until(
      () => got.some((n) => n.kind === 'statusUpdate' && n.payload.status.state === 'TASK_STATE_COMPLETED'),
      5000,
      'completion',
    );

    expect(got.every((n) => n.taskId === taskId)).toBe(true);
    expect(got.map((n) => (n.kind === 'statusUpdate' ? n.payload.status.state : n.kind))).toEqual([
      'TASK_STATE_WORKING',
      ...Array(6).fill('artifactUpdate'),
      'TASK_STATE_COMPLETED',
    ]);
    expect(got.filter((n) => n.kind === 'artifactUpdate').map((n) => n.payload.artifact.parts[0]?.text)).toEqual(
      Array.from({ length: 6 }, (_, i) => `chunk ${i}`),
    );
    const seqs = got.map((n) => n.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(got[0]?.verifiedBy).toEqual(['token', 'jwt']);
    expect(got[0]?.protocolVersion).toBe('1.0');

    const jwks = await (await fetch(`${agent.url}/.well-known/jwks.json`)).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(['k1']);
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('loses nothing while the receiver is down, and the receiver drops the duplicates', async () => {
    const failures: unknown[] = [];
    const sender = createNodePushSender({
      ...fast,
      ssrf: { allow: ['127.0.0.1'] },
      onDeliveryFailure: (f) => failures.push(f),
    });
    cleanups.push(() => sender.close());
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const agent = await startAgent(
      sender,
      chunkedExecutor(20, async (_ctx, i) => (i === 10 ? released : undefined)),
    );
    cleanups.push(agent.close);

    const receiver = createWebhookReceiver({ token: 'secret-token' });
    const handled: number[] = [];
    receiver.on('*', (n) => void handled.push(n.seq as number));
    let requests = 0;
    // Reserve a port, then take the receiver down before the task starts.
    let rx = await startReceiver(receiver);
    const port = Number(new URL(rx.url).port);
    await rx.close();
    const taskId = await agent.startTask(`${rx.url}/webhook`);
    // Events pile up while nobody listens: the task itself goes on.
    await new Promise((r) => setTimeout(r, 300));
    const task = await agent.rpc('GetTask', { id: taskId });
    expect(task.result.artifacts[0].parts.length).toBe(10); // the agent is not blocked by the dead webhook
    expect(handled).toEqual([]);

    // Back up; the first answer is lost after the handler ran (the sender retries, the receiver dedups).
    let dropped = false;
    rx = await startReceiver(receiver, {
      port,
      intercept: (req, res) => {
        requests++;
        if (!dropped) {
          dropped = true;
          void (async () => {
            await receiver.handler.fetch(toWebRequest(req, res));
            res.destroy(); // the acknowledgement never reaches the sender
          })();
          return true;
        }
        return false;
      },
    });
    cleanups.push(rx.close);
    release();
    await until(() => handled.length >= 22, 8000, 'all events');
    await sender.idle();
    // working + 20 artifacts + completed, each handled exactly once, in order.
    expect(handled.length).toBe(22);
    expect(handled).toEqual([...handled].sort((a, b) => a - b));
    expect(new Set(handled).size).toBe(22);
    expect(requests).toBeGreaterThan(22); // the lost ack was redelivered
    expect(failures).toEqual([]);
  });

  it('a webhook that hangs does not delay another task', async () => {
    const sender = createNodePushSender({
      retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
      timeoutMs: 10_000,
      ssrf: { allow: ['127.0.0.1'] },
    });
    cleanups.push(() => sender.close());
    const agent = await startAgent(sender, chunkedExecutor(3));
    cleanups.push(agent.close);
    let hung = 0;
    const hanging: Server = createServer(() => {
      hung++; // never answers
    });
    const { url: hangingUrl, close: closeHanging } = await listen(hanging);
    cleanups.push(closeHanging);
    const receiver = createWebhookReceiver({ token: 'secret-token' });
    const got: string[] = [];
    receiver.on('*', (n) => void got.push(n.taskId));
    const rx = await startReceiver(receiver);
    cleanups.push(rx.close);

    await agent.startTask(`${hangingUrl}/hook`, 'secret-token', 'slow');
    await until(() => hung > 0, 3000, 'the hanging webhook to be called');
    const fastTask = await agent.startTask(`${rx.url}/hook`);
    await until(() => got.length === 5, 3000, 'the other task’s notifications');
    expect(got.every((id) => id === fastTask)).toBe(true);
    expect(hung).toBe(1); // still stuck on its first notification
  });

  it('sends v0.3 bodies to webhooks registered through the v0.3 wire, v1.0 bodies to the others', async () => {
    const sender = createNodePushSender({ ...fast, ssrf: { allow: ['127.0.0.1'] } });
    cleanups.push(() => sender.close());
    const agent = await startAgent(sender, chunkedExecutor(2));
    cleanups.push(agent.close);
    const receiver = createWebhookReceiver({ token: 'secret-token' });
    const got: AnyNotification[] = [];
    const types: string[] = [];
    receiver.on('*', (n) => {
      got.push(n);
      types.push(`${n.protocolVersion} ${n.headers.get('content-type')}`);
    });
    const rx = await startReceiver(receiver);
    cleanups.push(rx.close);

    // A v0.3 client registers its webhook inside message/send.
    const legacy = await agent.rpc('message/send', {
      message: { kind: 'message', messageId: 'm-v03', role: 'user', parts: [{ kind: 'text', text: 'go' }] },
      configuration: {
        blocking: false,
        pushNotificationConfig: { id: 'old', url: `${rx.url}/old`, token: 'secret-token' },
      },
    });
    const legacyTask = legacy.result.id as string;
    await until(() => got.filter((n) => n.taskId === legacyTask).length === 4, 5000, 'v0.3 notifications');
    const legacyOnes = got.filter((n) => n.taskId === legacyTask);
    expect(legacyOnes.every((n) => n.protocolVersion === '0.3')).toBe(true);
    expect(legacyOnes.at(-1)?.kind).toBe('statusUpdate');
    expect(types[0]).toMatch(/^0\.3 application\/json/);

    // The same task seen by a v1.0 client: the config shows no internal fields.
    const config = await agent.rpc('GetTaskPushNotificationConfig', { taskId: legacyTask, id: 'old' });
    expect(config.result).toEqual({ taskId: legacyTask, id: 'old', url: `${rx.url}/old`, token: 'secret-token' });

    const modernTask = await agent.startTask(`${rx.url}/new`);
    await until(() => got.filter((n) => n.taskId === modernTask).length === 4, 5000, 'v1.0 notifications');
    expect(got.filter((n) => n.taskId === modernTask).every((n) => n.protocolVersion === '1.0')).toBe(true);
    expect(types.at(-1)).toMatch(/^1\.0 application\/a2a\+json/);
  });
});
