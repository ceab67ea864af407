import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

/**
 * The standalone mode sends without ioredis's auto-pipelining: its scripts must still leave in batches, one
 * socket write each (corked-batches.ts), or each script would cost a syscall of its own.
 */
describe.runIf(hasRedis)("the store's scripts on standalone Redis", () => {
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

  /** Runs `work` and returns how many writes the store's socket made meanwhile (`_write` or `_writev` calls). */
  async function socketWrites(work: () => Promise<void>): Promise<number> {
    type Method = (...args: unknown[]) => unknown;
    const socket = (store.client as unknown as { stream: Socket & Record<'_write' | '_writev', Method> }).stream;
    let writes = 0;
    const originals = { _write: socket._write, _writev: socket._writev };
    for (const name of ['_write', '_writev'] as const) {
      socket[name] = function (this: Socket, ...args: unknown[]) {
        writes++;
        return originals[name].apply(this, args);
      };
    }
    try {
      await work();
    } finally {
      Object.assign(socket, originals);
    }
    return writes;
  }
  const missing = (n: number, tag: string) => Array.from({ length: n }, (_, i) => store.get(`missing-${tag}-${i}`));

  it('leave in one socket write, and each gets its own reply', async () => {
    const writes = await socketWrites(async () => {
      expect(await Promise.all(missing(20, 'a'))).toEqual(Array.from({ length: 20 }, () => undefined));
    });
    expect(writes).toBe(1);
  });

  it('issued while a batch is in flight, over several ticks, leave together once its reply is in', async () => {
    const writes = await socketWrites(async () => {
      const first = store.get('missing-first');
      await new Promise((resolve) => process.nextTick(resolve)); // the first batch is written; no reply before I/O
      const next = missing(10, 'b');
      await new Promise((resolve) => process.nextTick(resolve));
      next.push(...missing(10, 'c'));
      expect(await Promise.all([first, ...next])).toEqual(Array.from({ length: 21 }, () => undefined));
    });
    expect(writes).toBe(2);
  });
});
