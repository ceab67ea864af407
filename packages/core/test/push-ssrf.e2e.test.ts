import { createServer } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { afterEach, describe, expect, it } from 'vitest';
import { type DeliveryFailure, PushUrlGuard } from '../src/index.js';
import { createGuardedFetch, createNodePushSender } from '../src/node/index.js';
import { card, startServer } from './helpers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const executor = {
  async execute(ctx: { submit(): Promise<void>; working(): Promise<void>; complete(): Promise<void> }) {
    await ctx.submit();
    void (async () => {
      await new Promise((r) => setTimeout(r, 50));
      await ctx.working();
      await ctx.complete();
    })();
  },
};

async function hitCounter() {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end();
  });
  const { url, close } = await listen(server);
  closers.push(close);
  return { port: Number(new URL(url).port), hits: () => hits };
}

describe('webhook SSRF guard', () => {
  it('refuses private, loopback, metadata, CGNAT and mapped addresses when the config is created (-32602)', async () => {
    const sender = createNodePushSender();
    closers.push(() => sender.close());
    const server = await startServer({
      agentCard: card,
      executor: executor as never,
      pushNotifications: sender,
      dialects: ['paraphrase'],
    });
    closers.push(server.close);
    const task = (
      await server.rpc('SendMessage', {
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'x' }] },
        configuration: { returnImmediately: true },
      })
    ).body.result.task;
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1:8080/hook',
      'http://localhost:8888/webhook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://100.64.0.1/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::a9fe:a9fe]/latest/meta-data/', // IPv4-compatible 169.254.169.254
      'http://[::7f00:1]/hook',
      'http://[::a00:1]/hook',
      'http://[64:ff9b::a9fe:a9fe]/', // NAT64
      'http://[2002:a9fe:a9fe::1]/', // 6to4
      'http://0.0.0.0/hook',
      'http://224.0.0.1/hook',
      'ftp://example.com/hook',
      'http://user:pw@example.com/hook',
    ]) {
      const answer = await server.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url });
      expect(answer.body.error?.code, url).toBe(-32602);
      expect(answer.body.error?.message, url).toMatch(/url/);
    }
    // The refusal of a local webhook names the setting that allows it.
    for (const [url, host] of [
      ['http://localhost:8888/webhook', 'localhost'],
      ['http://127.0.0.1:8080/hook', '127.0.0.1'],
    ]) {
      const answer = await server.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url });
      expect(answer.body.error?.message).toContain(`ssrf: { allow: ['${host}'] }`);
    }
    const ok = await server.rpc('CreateTaskPushNotificationConfig', {
      taskId: task.id,
      url: 'https://93.184.216.34/hook',
    });
    expect(ok.body.result?.url).toBe('https://93.184.216.34/hook');
    // Also through SendMessage's configuration.
    const viaSend = await server.rpc('SendMessage', {
      message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'x' }] },
      configuration: { taskPushNotificationConfig: { url: 'http://169.254.169.254/' } },
    });
    expect(viaSend.body.error?.code).toBe(-32602);
    // And through the paraphrase dialect's REST route.
    const viaDialect = await server.rest('POST', `/tasks/${task.id}/notifications`, {
      configId: 'c1',
      pushNotificationConfig: { url: 'http://[::a9fe:a9fe]/' },
    });
    expect(viaDialect.status).toBe(400);
    expect(viaDialect.body.code).toBe(-32602);
  });

  it('delivers to an allow-listed loopback webhook', async () => {
    const target = await hitCounter();
    const sender = createNodePushSender({ ssrf: { allow: ['127.0.0.1'] } });
    closers.push(() => sender.close());
    const server = await startServer({ agentCard: card, executor: executor as never, pushNotifications: sender });
    closers.push(server.close);
    const answer = await server.rpc('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'x' }] },
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: { url: `http://127.0.0.1:${target.port}/hook` },
      },
    });
    expect(answer.body.result?.task).toBeDefined();
    const deadline = Date.now() + 3000;
    while (target.hits() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(target.hits()).toBe(2); // working, completed
  });

  it('checks the resolved address at connect time: a name that rebinds to 127.0.0.1 is never dialled', async () => {
    const target = await hitCounter();
    const failures: DeliveryFailure[] = [];
    // DNS rebinding: public when the config is created, loopback when the socket connects.
    const sender = createNodePushSender({
      resolve: async () => ['93.184.216.34'],
      resolveAll: async () => [{ address: '127.0.0.1', family: 4 }],
      onDeliveryFailure: (f) => failures.push(f),
    });
    closers.push(() => sender.close());
    const server = await startServer({ agentCard: card, executor: executor as never, pushNotifications: sender });
    closers.push(server.close);
    const answer = await server.rpc('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'x' }] },
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: { id: 'c', url: `http://rebind.example:${target.port}/hook` },
      },
    });
    const taskId = answer.body.result.task.id;
    const deadline = Date.now() + 3000;
    while (failures.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(failures[0]).toMatchObject({ taskId, configId: 'c', health: 'disabled' });
    expect(failures[0]?.reason).toMatch(/127\.0\.0\.1/);
    expect(target.hits()).toBe(0);
    expect((await server.rpc('GetTask', { id: taskId })).body.result.id).toBe(taskId); // the task is unaffected
  });

  it('guarded fetch resolves localhost itself and refuses it unless the address is allow-listed', async () => {
    const target = await hitCounter();
    const url = `http://localhost:${target.port}/hook`;
    await expect(createGuardedFetch(new PushUrlGuard())(url, { method: 'POST', body: '{}' })).rejects.toMatchObject({
      name: 'BlockedAddressError',
    });
    expect(target.hits()).toBe(0);
    const allowed = await createGuardedFetch(new PushUrlGuard({ allow: ['127.0.0.1', '::1'] }))(url, {
      method: 'POST',
      body: '{}',
    });
    expect(allowed.status).toBe(200);
    expect(target.hits()).toBe(1);
  });
});
