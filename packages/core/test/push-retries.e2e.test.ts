import { createServer, type IncomingMessage } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPushSender,
  type DeliveryFailure,
  type DeliverySuccess,
  type PushSender,
  type PushSenderOptions,
} from '../src/index.js';
import { createNodePushSender } from '../src/node/index.js';
import { card, deferred, eventually, startServer } from './helpers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** One request the webhook received. `attempt` counts per (path, seq), from 1. */
interface Hit {
  path: string;
  seq: number;
  id: string;
  attempt: number;
  at: number;
  /** The body's one key: `statusUpdate`, `artifactUpdate`, `task`. */
  kind: string;
  state?: string;
  answered: number | 'reset';
}

type Answer = number | { status: number; headers?: Record<string, string> } | 'reset';

/** A webhook on 127.0.0.1:0 that answers each request as `answer` says and records it. */
async function webhook(answer: (hit: Omit<Hit, 'answered'>) => Answer = () => 200) {
  const hits: Hit[] = [];
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await text(req));
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const seq = Number(req.headers['a2a-notification-seq']);
    const kind = Object.keys(body)[0] ?? '';
    const hit = {
      path,
      seq,
      id: String(req.headers['a2a-notification-id']),
      attempt: hits.filter((h) => h.path === path && h.seq === seq).length + 1,
      at: Date.now(),
      kind,
      ...(kind === 'statusUpdate' && { state: body.statusUpdate.status.state as string }),
    };
    const a = answer(hit);
    hits.push({ ...hit, answered: typeof a === 'object' ? a.status : a });
    if (a === 'reset') return void req.socket.destroy();
    const { status, headers = {} } = typeof a === 'number' ? { status: a } : a;
    res.writeHead(status, headers).end();
  });
  const { url: base, close } = await listen(server);
  closers.push(close);
  return { url: (path = '/hook') => `${base}${path}`, hits };
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An agent whose task, once `go()` is called, goes working, emits `chunks` artifact updates and completes: 2 +
 * `chunks` notifications per config, in that order.
 */
async function agentWith(sender: PushSender, chunks = 0) {
  const gate = deferred();
  const executor = {
    async execute(ctx: any) {
      await ctx.submit();
      void (async () => {
        await gate.promise;
        await ctx.working();
        for (let i = 0; i < chunks; i++) await ctx.artifact({ artifactId: 'out', text: `chunk ${i}`, append: i > 0 });
        await ctx.complete();
      })();
    },
  };
  const server = await startServer({ agentCard: card, executor: executor as never, pushNotifications: sender });
  closers.push(server.close);
  return {
    server,
    /** Starts a task pushing to `configs` (id → url); its events flow once `go()` is called. */
    async start(configs: Record<string, string>): Promise<string> {
      const [first, ...rest] = Object.entries(configs);
      const answer = await server.rpc('SendMessage', {
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'x' }] },
        configuration: {
          returnImmediately: true,
          ...(first && { taskPushNotificationConfig: { id: first[0], url: first[1] } }),
        },
      });
      const taskId = answer.body.result.task.id as string;
      for (const [id, url] of rest) {
        const created = await server.rpc('CreateTaskPushNotificationConfig', { taskId, id, url });
        expect(created.body.error).toBeUndefined();
      }
      return taskId;
    },
    go: () => gate.resolve(),
  };
}

/** A sender on 127.0.0.1 whose backoff is 0 unless a test says otherwise (`random` 0: the floor of full jitter). */
function senderWith(
  options: PushSenderOptions = {},
  make: (o: PushSenderOptions) => PushSender = createNodePushSender,
) {
  const failures: DeliveryFailure[] = [];
  const delivered: DeliverySuccess[] = [];
  const sender = make({
    ssrf: { allow: ['127.0.0.1'] },
    timeoutMs: 2000,
    random: () => 0,
    onDeliveryFailure: (f) => failures.push(f),
    onDelivered: (s) => delivered.push(s),
    ...options,
    retry: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 5, ...options.retry },
  });
  closers.push(() => sender.close());
  return { sender, failures, delivered };
}

const COMPLETED = 'TASK_STATE_COMPLETED';
const completedAt = (hits: Hit[], path = '/hook') =>
  hits.some((h) => h.path === path && h.state === COMPLETED && h.answered === 200);

/** The (seq, answer) pairs a path received, in order. */
const log = (hits: Hit[], path = '/hook') => hits.filter((h) => h.path === path).map((h) => `${h.seq}:${h.answered}`);

describe('push retries against a real webhook', () => {
  it.each([
    [429, 'delta-seconds', () => '1'],
    [503, 'an HTTP date', () => new Date(Date.now() + 2000).toUTCString()],
  ])('%i with Retry-After as %s: the retry waits for it', async (status, _form, retryAfter) => {
    const hook = await webhook((h) =>
      h.attempt === 1 && h.state === 'TASK_STATE_WORKING' ? { status, headers: { 'retry-after': retryAfter() } } : 200,
    );
    // The backoff is 0 (random 0), so any wait comes from Retry-After; maxDelayMs is above it.
    const { sender, failures, delivered } = senderWith({ retry: { maxDelayMs: 10_000 } });
    const agent = await agentWith(sender);
    const taskId = await agent.start({ c: hook.url() });
    agent.go();
    await eventually(() => completedAt(hook.hits), 8000);

    const [first, second] = hook.hits;
    expect([first?.answered, second?.answered]).toEqual([status, 200]);
    expect(second?.id).toBe(first?.id); // the same notification again
    // An HTTP date has whole seconds, so "now + 2 s" is at least 1 s away.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(failures).toEqual([]);
    expect(delivered[0]).toMatchObject({ taskId, configId: 'c', seq: first?.seq, attempts: 2, status: 200 });
  });

  it('a Retry-After beyond maxDelayMs is cut to maxDelayMs', async () => {
    const hook = await webhook((h) => (h.attempt === 1 ? { status: 503, headers: { 'retry-after': '3600' } } : 200));
    const { sender, failures } = senderWith({ retry: { maxDelayMs: 100 } });
    const agent = await agentWith(sender);
    await agent.start({ c: hook.url() });
    agent.go();
    // Honoured uncapped, the first retry would come in an hour.
    await eventually(() => completedAt(hook.hits), 5000);
    expect(log(hook.hits).filter((l) => l.endsWith(':503'))).toHaveLength(2);
    expect(failures).toEqual([]);
  });

  it('the Retry-After of another status (500) is not honoured: the backoff applies', async () => {
    const hook = await webhook((h) => (h.attempt === 1 ? { status: 500, headers: { 'retry-after': '3600' } } : 200));
    const { sender } = senderWith({ retry: { maxDelayMs: 600_000 } });
    const agent = await agentWith(sender);
    await agent.start({ c: hook.url() });
    agent.go();
    await eventually(() => completedAt(hook.hits), 5000);
    expect(log(hook.hits).filter((l) => l.endsWith(':500'))).toHaveLength(2);
  });

  it('5xx and connection errors are retried, on a backoff that grows per attempt', async () => {
    const answers: Answer[] = [500, 'reset', 502, 200];
    const hook = await webhook((h) => (h.state === 'TASK_STATE_WORKING' ? (answers[h.attempt - 1] ?? 200) : 200));
    // Just below the ceiling: 99, 199, 399 ms before attempts 2, 3, 4.
    const { sender, failures, delivered } = senderWith({
      random: () => 0.999,
      retry: { baseDelayMs: 100, maxDelayMs: 1000, factor: 2 },
    });
    const agent = await agentWith(sender);
    await agent.start({ c: hook.url() });
    agent.go();
    await eventually(() => completedAt(hook.hits), 8000);

    const working = hook.hits.filter((h) => h.state === 'TASK_STATE_WORKING');
    expect(working.map((h) => h.answered)).toEqual([500, 'reset', 502, 200]);
    const gaps = working.slice(1).map((h, i) => h.at - (working[i]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    expect(gaps[2]).toBeGreaterThanOrEqual(390);
    expect(failures).toEqual([]);
    expect(delivered[0]).toMatchObject({ seq: working[0]?.seq, attempts: 4, status: 200 });
  });

  it('other 4xx are retried like 5xx (404 then 200 is delivered)', async () => {
    const hook = await webhook((h) => (h.attempt === 1 ? 404 : 200));
    const { sender, failures, delivered } = senderWith();
    const agent = await agentWith(sender);
    await agent.start({ c: hook.url() });
    agent.go();
    await eventually(() => completedAt(hook.hits), 5000);
    // The hook's last answer is recorded before the sender has read it: its `onDelivered` comes after.
    await sender.idle();
    const [working, completed] = [...new Set(hook.hits.map((h) => h.seq))];
    expect(log(hook.hits)).toEqual([`${working}:404`, `${working}:200`, `${completed}:404`, `${completed}:200`]);
    expect(delivered.map((d) => d.attempts)).toEqual([2, 2]);
    expect(failures).toEqual([]);
  });

  it('410 Gone disables the config: no retry, no later event, the config itself is kept', async () => {
    const hook = await webhook((h) => (h.path === '/gone' ? 410 : 200));
    const { sender, failures } = senderWith();
    const agent = await agentWith(sender, 2);
    const taskId = await agent.start({ gone: hook.url('/gone'), ok: hook.url('/ok') });
    agent.go();
    // The healthy config seeing COMPLETED means every event was queued for both configs.
    await eventually(() => completedAt(hook.hits, '/ok'), 5000);
    await sender.idle();

    const gone = hook.hits.filter((h) => h.path === '/gone');
    expect(gone).toHaveLength(1);
    expect(gone[0]?.state).toBe('TASK_STATE_WORKING');
    expect(hook.hits.filter((h) => h.path === '/ok')).toHaveLength(4); // working, 2 artifacts, completed
    expect(failures).toEqual([
      expect.objectContaining({
        taskId,
        configId: 'gone',
        seq: gone[0]?.seq,
        attempts: 1,
        health: 'disabled',
        status: 410,
        reason: 'webhook answered 410 Gone',
      }),
    ]);
    expect(await sender.deliveryState(taskId, 'gone')).toEqual({
      lastDeliveredSeq: gone[0]?.seq,
      health: 'disabled',
      consecutiveFailures: 1,
      lastError: 'webhook answered 410 Gone',
    });
    // Disabled, not deleted: the client still reads its config.
    const config = await agent.server.rpc('GetTaskPushNotificationConfig', { taskId, id: 'gone' });
    expect(config.body.result).toMatchObject({ taskId, id: 'gone', url: hook.url('/gone') });
  });

  it('413 drops that event without a retry; the config is failing and its next event still goes out', async () => {
    const hook = await webhook((h) => (h.state === 'TASK_STATE_WORKING' ? 413 : 200));
    const { sender, failures, delivered } = senderWith();
    const agent = await agentWith(sender, 1);
    const taskId = await agent.start({ c: hook.url() });
    agent.go();
    await eventually(() => completedAt(hook.hits), 5000);
    await sender.idle();

    const [working, artifact, completed] = [...new Set(hook.hits.map((h) => h.seq))];
    expect(log(hook.hits)).toEqual([`${working}:413`, `${artifact}:200`, `${completed}:200`]);
    expect(failures).toEqual([
      expect.objectContaining({
        seq: working,
        attempts: 1,
        health: 'failing',
        status: 413,
        reason: 'webhook answered 413: notification too large',
      }),
    ]);
    expect(delivered.map((d) => d.seq)).toEqual([artifact, completed]);
    expect(await sender.deliveryState(taskId, 'c')).toEqual({
      lastDeliveredSeq: completed,
      health: 'active',
      consecutiveFailures: 0,
    });
  });

  const transports: Record<string, (o: PushSenderOptions) => PushSender> = {
    'the node:http sender': createNodePushSender,
    'the global fetch sender': createPushSender,
  };
  for (const [name, make] of Object.entries(transports)) {
    it(`${name}: a redirect is not followed and drops the event`, async () => {
      const hook = await webhook((h) =>
        h.path === '/hook' && h.state === 'TASK_STATE_WORKING' ? { status: 307, headers: { location: '/moved' } } : 200,
      );
      const { sender, failures } = senderWith({}, make);
      const agent = await agentWith(sender);
      await agent.start({ c: hook.url() });
      agent.go();
      await eventually(() => completedAt(hook.hits), 5000);
      await sender.idle();

      expect(hook.hits.filter((h) => h.path === '/moved')).toEqual([]);
      expect(hook.hits.map((h) => h.answered)).toEqual([307, 200]);
      expect(failures).toEqual([
        expect.objectContaining({
          attempts: 1,
          health: 'failing',
          status: 307,
          reason: 'webhook answered a redirect (307); redirects are not followed',
        }),
      ]);
    });
  }

  it('the failure budget: maxAttempts per event, then failingAttempts until one succeeds; each give-up recorded', async () => {
    // The first two events (WORKING, the first artifact) always fail; the rest succeed.
    const order: number[] = [];
    const hook = await webhook((h) => {
      if (!order.includes(h.seq)) order.push(h.seq);
      return order.indexOf(h.seq) < 2 ? 500 : 200;
    });
    const warnings: string[] = [];
    const { sender, failures, delivered } = senderWith({
      retry: { maxAttempts: 3, failingAttempts: 2 },
      logger: { warn: (_fields, message) => void warnings.push(String(message)), error: () => {} },
    });
    const agent = await agentWith(sender, 2);
    const taskId = await agent.start({ c: `${hook.url()}?secret=s3cr3t` });
    agent.go();
    await eventually(() => completedAt(hook.hits), 5000);
    await sender.idle();

    const [working, artifact1, artifact2, completed] = [...new Set(hook.hits.map((h) => h.seq))];
    expect(log(hook.hits)).toEqual([
      ...Array(3).fill(`${working}:500`), // the full budget while active
      ...Array(2).fill(`${artifact1}:500`), // failingAttempts once failing
      `${artifact2}:200`,
      `${completed}:200`,
    ]);
    expect(failures).toEqual([
      {
        taskId,
        configId: 'c',
        url: `${hook.url()}?secret=s3cr3t`,
        seq: working,
        notificationId: `${taskId}:c:${working}`,
        attempts: 3,
        health: 'failing',
        reason: 'webhook answered 500',
        status: 500,
      },
      expect.objectContaining({ seq: artifact1, attempts: 2, health: 'failing', status: 500 }),
    ]);
    expect(delivered.map((d) => [d.seq, d.attempts])).toEqual([
      [artifact2, 1],
      [completed, 1],
    ]);
    expect(await sender.deliveryState(taskId, 'c')).toEqual({
      lastDeliveredSeq: completed,
      health: 'active',
      consecutiveFailures: 0,
    });
    expect(warnings).toEqual([]); // onDeliveryFailure was given: it is the record
  });

  it('without onDeliveryFailure, a give-up is logged as a warning (origin and path only)', async () => {
    const hook = await webhook(() => 500);
    const warnings: string[] = [];
    const { sender } = senderWith({
      retry: { maxAttempts: 2 },
      onDeliveryFailure: undefined as never,
      logger: { warn: (_fields, message) => void warnings.push(String(message)), error: () => {} },
    });
    const agent = await agentWith(sender);
    const taskId = await agent.start({ c: `${hook.url()}?secret=s3cr3t` });
    agent.go();
    await eventually(() => warnings.length >= 1, 5000);
    expect(warnings[0]).toContain(
      `push notification ${taskId}:c:${hook.hits[0]?.seq} to ${hook.url()} given up after 2 attempts: webhook answered 500`,
    );
    expect(warnings.join('\n')).not.toContain('s3cr3t');
  });

  it("one task's events reach a webhook in seq order however their retries go", async () => {
    // Every event fails once or twice (503, reset, 500, ...) before it is accepted.
    const pattern: Answer[] = [503, 'reset', 500];
    const hook = await webhook((h) => (h.attempt <= 1 + (h.seq % 2) ? (pattern[h.seq % 3] ?? 500) : 200));
    const { sender, failures } = senderWith();
    const agent = await agentWith(sender, 6);
    await agent.start({ c: hook.url() });
    agent.go();
    await eventually(() => completedAt(hook.hits), 8000);

    const accepted = hook.hits.filter((h) => h.answered === 200);
    expect(accepted.map((h) => h.kind)).toEqual(['statusUpdate', ...Array(6).fill('artifactUpdate'), 'statusUpdate']);
    const seqs = accepted.map((h) => h.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(8);
    // No event is sent before the one before it was accepted.
    const all = hook.hits.map((h) => h.seq);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(hook.hits.length).toBeGreaterThan(8);
    expect(failures).toEqual([]);
  });
});
