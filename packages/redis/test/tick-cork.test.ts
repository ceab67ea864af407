import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

/**
 * The standalone mode sends without ioredis's auto-pipelining: the scripts issued in one tick must still leave in one
 * socket write (tick-cork.ts), or each would cost a syscall of its own.
 */
describe.runIf(hasRedis)('the scripts of one tick', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>>;
  let store: RedisTaskStore;

  beforeAll(async () => {
    server = await testRedisUrl();
    store = await RedisTaskStore.connect({ url: server.url, keyPrefix: freshPrefix('cork'), onError: () => {} });
    await store.get('warm-up'); // the script is loaded on the connection (EVAL once, EVALSHA after)
  });
  afterAll(async () => {
    await store?.close();
    await server?.release();
  });

  it('leave in one socket write, and each gets its own reply', async () => {
    const socket = (
      store.client as unknown as { stream: Socket & Record<'_write' | '_writev', (...args: unknown[]) => unknown> }
    ).stream;
    let writes = 0;
    const count = (name: '_write' | '_writev') => {
      const original = socket[name];
      socket[name] = function (this: Socket, ...args: unknown[]) {
        writes++;
        return original.apply(this, args);
      };
      return () => {
        socket[name] = original;
      };
    };
    const restore = [count('_write'), count('_writev')];
    try {
      const ids = Array.from({ length: 20 }, (_, i) => `missing-${i}`);
      expect(await Promise.all(ids.map((id) => store.get(id)))).toEqual(ids.map(() => undefined));
    } finally {
      for (const undo of restore) undo();
    }
    expect(writes).toBe(1);
  });
});
