import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisExecutionCoordinator, RedisTaskStore } from '../src/index.js';
import { monitorCommands } from './monitor.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

const turn = () => new Promise((r) => setImmediate(r));

// Executions that start or end in one event-loop turn share one lease script (docs/performance.md, "Durable
// throughput on Redis"): counted with MONITOR, and the leases checked in Redis.
describe.runIf(hasRedis)('RedisExecutionCoordinator lease batching', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>>;
  let store: RedisTaskStore;
  let coordinator: RedisExecutionCoordinator;
  let monitor: Awaited<ReturnType<typeof monitorCommands>>;
  const prefix = freshPrefix('lease-batch');

  beforeAll(async () => {
    server = await testRedisUrl();
    store = await RedisTaskStore.connect({ url: server.url, keyPrefix: prefix, onError: () => {} });
    coordinator = new RedisExecutionCoordinator({ store, instanceId: 'here', leaseTtlMs: 60_000 });
    monitor = await monitorCommands(server.url, prefix, store.client);
  });
  afterAll(async () => {
    monitor?.close();
    coordinator?.close();
    await store?.close();
    await server?.release();
  });

  const holders = () => store.client.hgetall(store.keys.coord().holders);

  it('three executions started in one turn take their leases with one script, and release them with one', async () => {
    let leases: { release(handOver?: boolean): void }[] = [];
    const taken = await monitor.during(async () => {
      leases = ['b1', 'b2', 'b3'].map((taskId) => coordinator.track({ taskId, abort: () => {} }));
    }, turn);
    expect(taken.map(([name]) => name)).toEqual(['script']);
    expect(await holders()).toEqual({ b1: 'here', b2: 'here', b3: 'here' });

    const released = await monitor.during(async () => {
      for (const lease of leases) lease.release();
    }, turn);
    expect(released.map(([name]) => name)).toEqual(['script']);
    expect(await holders()).toEqual({});
  });

  it('a task released and tracked again in one turn keeps its lease', async () => {
    const first = coordinator.track({ taskId: 'again', abort: () => {} });
    await turn();
    await monitor.during(async () => {}, turn); // the renew has reached Redis
    first.release();
    const second = coordinator.track({ taskId: 'again', abort: () => {} });
    await monitor.during(async () => {}, turn);
    expect(await store.client.hget(store.keys.coord().holders, 'again')).toBe('here');
    second.release();
    await monitor.during(async () => {}, turn);
    expect(await store.client.hget(store.keys.coord().holders, 'again')).toBeNull();
  });
});
