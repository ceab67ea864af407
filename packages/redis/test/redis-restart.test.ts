import { type Listening, listen } from '@a2a/adapter-testsuite';
import { createA2AHandler, isA2AError, newTask, type TaskEventRecord } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { eventually, message, openStream, rest } from '@a2a/store-testsuite/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, RedisTaskStore, type RedisTaskStoreSetup } from '../src/index.js';
import { freshPrefix, hasServerBinary, type RedisServer, startRedisServer } from './redis.js';

/**
 * Redis crashes (SIGKILL) and comes back under running servers, on a redis-server of this file's own with
 * `appendfsync always`: every write Redis acknowledged is on disk, so it must be readable after the restart.
 */
describe.runIf(hasServerBinary)('Redis restarts under running servers', () => {
  let redis: RedisServer;
  let setup: RedisTaskStoreSetup;
  let server: Listening;
  let base: string;

  beforeAll(async () => {
    redis = await startRedisServer({ appendfsync: 'always' });
    setup = await createRedisTaskStore({
      url: redis.url,
      keyPrefix: freshPrefix('restart'),
      leaseTtlMs: 3000,
      onError: () => {},
    });
    const a2a = createA2AHandler({
      agentCard: {
        name: 'restart',
        description: 'restart test agent',
        version: '1.0.0',
        capabilities: { streaming: true },
        skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      },
      executor: {
        async execute(ctx) {
          const text = ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');
          await ctx.working();
          // The workers' requests take a while, so the crash catches them in flight (their writes wait it out).
          if (text.startsWith('w')) await new Promise((resolve) => setTimeout(resolve, 200));
          if (text === 'hang')
            await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
          else await ctx.complete(`echo: ${text}`);
        },
      },
      taskStore: setup.taskStore,
      coordinator: setup.coordinator,
      keepAliveMs: 300,
      onError: () => {},
    });
    server = await listen(createNodeHandler(a2a));
    base = server.url;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await setup?.close();
    await redis?.destroy();
  });

  it('requests flowing through a crash answer within 10 s (success or a clean 503), and acknowledged writes survive', async () => {
    const hanging = await rest(base, 'POST', '/message:send', {
      message: message('hang'),
      configuration: { returnImmediately: true },
    });
    const hangingId = hanging.body.task.id as string;
    await eventually(
      async () => (await rest(base, 'GET', `/tasks/${hangingId}`)).body.status.state === 'TASK_STATE_WORKING',
    );
    const stream = await openStream(base, `/tasks/${hangingId}:subscribe`, {});
    expect(JSON.parse((await stream.next())?.data ?? '{}').task.id).toBe(hangingId);

    let flowing = true;
    const acknowledged: string[] = [];
    const outcomes: { status: number; ms: number }[] = [];
    const worker = async (w: number) => {
      for (let i = 0; flowing; i++) {
        const started = Date.now();
        const response = await fetch(`${base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: message(`w${w} #${i}`) }),
          signal: AbortSignal.timeout(10_000), // a request that hangs fails the test
        });
        const body = await response.json();
        outcomes.push({ status: response.status, ms: Date.now() - started });
        if (response.status === 200) {
          expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
          acknowledged.push(body.task.id);
        } else {
          expect(response.status).toBe(503);
          expect(body.error.status).toBe('UNAVAILABLE');
        }
        if (response.status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const workers = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    await new Promise((r) => setTimeout(r, 400));
    const beforeCrash = acknowledged.length;
    await redis.stop('SIGKILL');
    // Down for 1.5 s, and until a new request has met the outage (a loaded machine may notice the crash late). Not
    // the workers' own: a request in flight at the crash waits the outage out (the engine retries its writes for up
    // to storeRetryMs), so with all six caught mid-request none would send another until Redis is back.
    const probe = async () => {
      for (;;) {
        const started = Date.now();
        const response = await fetch(`${base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: message('probe') }),
          signal: AbortSignal.timeout(10_000),
        });
        outcomes.push({ status: response.status, ms: Date.now() - started });
        if (response.status === 503) return expect((await response.json()).error.status).toBe('UNAVAILABLE');
        await response.body?.cancel();
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await Promise.all([new Promise((r) => setTimeout(r, 1500)), probe()]);
    await redis.start();
    await eventually(() => acknowledged.length > beforeCrash + 20 || undefined, 15_000);
    flowing = false;
    await workers;

    expect(beforeCrash).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === 503).length).toBeGreaterThan(0);
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(10_000);
    // Every write Redis acknowledged (a 200 with the finished task) is there after the crash.
    for (let i = 0; i < acknowledged.length; i += 25) {
      const reads = await Promise.all(acknowledged.slice(i, i + 25).map((id) => rest(base, 'GET', `/tasks/${id}`)));
      for (const read of reads) expect(read.body.status?.state).toBe('TASK_STATE_COMPLETED');
    }

    // The stream opened before the crash still delivers what happens after it (the tail reconnected).
    const canceled = await rest(base, 'POST', `/tasks/${hangingId}:cancel`, {});
    expect(canceled.body.status.state).toBe('TASK_STATE_CANCELED');
    const update = await stream.next(10_000);
    expect(JSON.parse(update?.data ?? '{}').statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
  }, 60_000);

  it('a subscriber on another instance resumes after the crash from the last id it saw: no gap, no duplicate', async () => {
    const prefix = freshPrefix('resume');
    const writer = await RedisTaskStore.connect({ url: redis.url, keyPrefix: prefix, onError: () => {} });
    const reader = await RedisTaskStore.connect({ url: redis.url, keyPrefix: prefix, onError: () => {} });
    try {
      const ts = new Date().toISOString();
      const first = { ...message('go'), role: 'ROLE_USER' as const, taskId: 'resume', contextId: 'ctx' };
      await writer.create(newTask('resume', 'ctx', first, ts), 'o');
      let version = 1;
      const write = async (event: Parameters<RedisTaskStore['append']>[2]) => {
        // As the engine does: retry while Redis is unavailable; a write whose answer was lost may have landed.
        for (;;) {
          try {
            version = (await writer.append('resume', version, event)).seq;
            return;
          } catch (error) {
            if (!isA2AError(error) && !(error instanceof Error && /version/.test(error.message))) throw error;
            const stored = await writer.get('resume').catch(() => undefined);
            if (stored && stored.version > version) {
              version = stored.version; // it had landed
              return;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      const seen: TaskEventRecord[] = [];
      const done = (async () => {
        for await (const record of reader.subscribe('resume', 1)) seen.push(record);
      })();
      await write({ kind: 'status', status: { state: 'TASK_STATE_WORKING', timestamp: ts } });
      const chunk = (i: number) => ({
        kind: 'artifact' as const,
        artifact: { artifactId: 'out', parts: [{ text: `${i},` }] },
        append: i > 0,
      });
      for (let i = 0; i < 20; i++) await write(chunk(i));
      await eventually(() => seen.length >= 21 || undefined);
      await redis.stop('SIGKILL');
      const during = write(chunk(20)); // refused until Redis is back
      await new Promise((r) => setTimeout(r, 1000));
      await redis.start();
      await during;
      for (let i = 21; i < 40; i++) await write(chunk(i));
      await write({ kind: 'status', status: { state: 'TASK_STATE_COMPLETED', timestamp: ts } });
      await done;
      expect(seen.map((r) => r.seq)).toEqual(Array.from({ length: 42 }, (_, i) => i + 2));
      const text = (await reader.get('resume'))?.task.artifacts?.[0]?.parts.map((p) => ('text' in p ? p.text : ''));
      expect(text?.join('')).toBe(Array.from({ length: 40 }, (_, i) => `${i},`).join(''));
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('close() during an outage returns at once, whatever the stream tail was doing (it never waits for a reconnect)', async () => {
    // Stores closed at staggered moments of an outage: some find the tail sleeping, some with a command queued
    // while ioredis waits to reconnect (which disconnect() never settles).
    const prefix = freshPrefix('close');
    const stores = await Promise.all(
      Array.from({ length: 16 }, () =>
        RedisTaskStore.connect({ url: redis.url, keyPrefix: prefix, onError: () => {} }),
      ),
    );
    const ts = new Date().toISOString();
    const first = { ...message('go'), role: 'ROLE_USER' as const, taskId: 'open', contextId: 'ctx' };
    await (stores[0] as RedisTaskStore).create(newTask('open', 'ctx', first, ts), 'o');
    const drained = stores.map(async (store) => {
      for await (const _ of store.subscribe('open', 1)) {
        // nothing is written: the subscription only keeps the tail reading
      }
    });
    await eventually(async () => {
      const clients = (await stores[0]?.client.client('LIST')) as string;
      return (clients.match(/name=a2a-stream-tail/g)?.length ?? 0) >= stores.length || undefined;
    });
    await redis.stop('SIGKILL');
    try {
      const closed: boolean[] = [];
      await Promise.all(
        stores.map(async (store, i) => {
          await new Promise((r) => setTimeout(r, 125 * i));
          const done = store.close().then(() => true);
          closed[i] = await Promise.race([done, new Promise<false>((r) => setTimeout(() => r(false), 10_000))]);
        }),
      );
      expect(closed).toEqual(stores.map(() => true));
      await Promise.all(drained); // every subscription ended with its store
    } finally {
      await redis.start();
    }
  }, 60_000);
});
