import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTaskStore } from '../src/index.js';
import { card, startServer } from './helpers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const agentCard = { ...card, capabilities: { streaming: true } };
const executor = { execute: async (ctx: { complete(): Promise<void> }) => ctx.complete() };

/** An in-memory store whose database "goes away" on demand. */
class FlakyStore extends InMemoryTaskStore {
  down = false;
  hang = false;
  override async ping(): Promise<void> {
    if (this.hang) return new Promise(() => {});
    if (this.down) throw new Error('connect ECONNREFUSED 10.0.0.5:5432 (postgres://admin:pw@db)');
  }
}

describe('readiness route (health)', () => {
  it('is off by default', async () => {
    const server = await startServer({ agentCard, executor });
    closers.push(server.close);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(404);
  });

  it('200 while the store answers, 503 (without details of the failure) while it does not, and once closing', async () => {
    const taskStore = new FlakyStore();
    const warnings: unknown[] = [];
    const server = await startServer({
      agentCard,
      executor,
      taskStore,
      health: { timeoutMs: 200 },
      logger: { error: () => {}, warn: (fields) => warnings.push(fields) },
    });
    closers.push(server.close);
    const get = async () => {
      const response = await fetch(`${server.url}/healthz`);
      return { status: response.status, body: await response.json(), cache: response.headers.get('cache-control') };
    };
    expect(await get()).toEqual({ status: 200, body: { status: 'ok' }, cache: 'no-store' });
    expect((await fetch(`${server.url}/healthz`, { method: 'HEAD' })).status).toBe(200);

    taskStore.down = true;
    const down = await get();
    expect(down).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: 'task store unreachable' },
      cache: 'no-store',
    });
    expect(warnings).toHaveLength(1); // the operator's log has the cause; the probe's answer does not
    taskStore.down = false;
    taskStore.hang = true;
    expect((await get()).body).toEqual({ status: 'unavailable', reason: 'task store did not answer within 200 ms' });
    taskStore.hang = false;
    expect((await get()).status).toBe(200);

    await server.a2a.close({ timeoutMs: 0 });
    expect(await get()).toMatchObject({ status: 503, body: { reason: 'shutting down' } });
  });

  it('at a path of its own, under the base path', async () => {
    const server = await startServer({ agentCard, executor, basePath: '/a2a', health: { path: '/ready' } });
    closers.push(server.close);
    expect((await fetch(`${server.url}/a2a/ready`)).status).toBe(200);
    expect((await fetch(`${server.url}/ready`)).status).toBe(404);
    expect((await fetch(`${server.url}/a2a/ready`, { method: 'POST' })).status).not.toBe(200);
  });
});
