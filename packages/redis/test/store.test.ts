import {
  A2AError,
  ConcurrentModificationError,
  InvalidPageTokenError,
  newTask,
  type Task,
  type TaskEventRecord,
  type TaskState,
} from '@a2a/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisExecutionCoordinator, RedisTaskStore } from '../src/index.js';
import { freshPrefix, hasRedis, testRedisUrl } from './redis.js';

const message = (text: string, taskId: string, contextId: string) => ({
  messageId: `m-${text}`,
  role: 'ROLE_USER' as const,
  parts: [{ text }],
  taskId,
  contextId,
});
let clock = Date.parse('2026-01-01T00:00:00Z');
const now = () => {
  clock += 1000;
  return new Date(clock).toISOString();
};
const task = (id: string, contextId = 'ctx'): Task => newTask(id, contextId, message('hi', id, contextId), now());
const status = (state: TaskState) => ({ kind: 'status' as const, status: { state, timestamp: now() } });
const chunk = (i: number) => ({
  kind: 'artifact' as const,
  artifact: { artifactId: 'out', parts: [{ text: `c${i}` }] },
  append: i > 0,
});

describe.runIf(hasRedis)('RedisTaskStore', () => {
  let server: Awaited<ReturnType<typeof testRedisUrl>>;
  let a: RedisTaskStore;
  let b: RedisTaskStore;
  const prefix = freshPrefix('store');

  beforeAll(async () => {
    server = await testRedisUrl();
    a = await RedisTaskStore.connect({ url: server.url, keyPrefix: prefix, onError: () => {} });
    b = await RedisTaskStore.connect({ url: server.url, keyPrefix: prefix, onError: () => {} });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await server?.release();
  });

  it('appends with version checks, and the stream replays to the stored task', async () => {
    await a.create(task('t1'), 'alice');
    await expect(a.create(task('t1'), 'alice')).rejects.toThrow(/already exists/);
    const r2 = await a.append('t1', 1, status('TASK_STATE_WORKING'));
    expect(r2).toMatchObject({ seq: 2, state: 'TASK_STATE_WORKING', contextId: 'ctx' });
    await expect(b.append('t1', 1, status('TASK_STATE_COMPLETED'))).rejects.toMatchObject({
      name: 'ConcurrentModificationError',
      actualVersion: 2,
    });
    await b.append('t1', 2, { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: 'x' }] } });
    // A stale cache on `a` (it wrote version 2) must not let it overwrite b's version 3.
    await expect(a.append('t1', 2, status('TASK_STATE_COMPLETED'))).rejects.toBeInstanceOf(ConcurrentModificationError);
    await a.append('t1', 3, status('TASK_STATE_COMPLETED'));
    const stored = await b.get('t1');
    expect(stored?.version).toBe(4);
    expect(stored?.task.artifacts?.[0]?.artifactId).toBe('a');
    expect((await a.readEvents('t1', 0)).map((r) => r.seq)).toEqual([2, 3, 4]);
    expect((await a.readEvents('t1', 3)).map((r) => r.seq)).toEqual([4]);
    // Illegal transitions come from the state machine, and nothing is written.
    await expect(a.append('t1', 4, status('TASK_STATE_WORKING'))).rejects.toBeInstanceOf(A2AError);
    expect((await b.get('t1'))?.version).toBe(4);
    await expect(a.append('missing', 1, status('TASK_STATE_WORKING'))).rejects.toThrow(/does not exist/);
  });

  it('a long stream snapshots every 16 versions, and every read applies the logged events after it', async () => {
    await a.create(task('long'), 'alice');
    await a.append('long', 1, status('TASK_STATE_WORKING'));
    for (let i = 0; i < 40; i++) await a.append('long', 2 + i, chunk(i));
    const texts = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const [version, snapshot] = await a.client.hmget(a.keys.task('long').task, 'v', 'sv');
    expect([version, snapshot]).toEqual(['42', '32']);
    const read = await b.get('long', 'alice');
    expect(read?.version).toBe(42);
    expect(read?.task.artifacts?.[0]?.parts.map((p) => ('text' in p ? p.text : ''))).toEqual(texts);
    await b.append('long', 42, chunk(40));
    await b.append('long', 43, status('TASK_STATE_COMPLETED'));
    expect((await a.get('long'))?.task.artifacts?.[0]?.parts).toHaveLength(41);
  });

  it('a status change writes no snapshot: reads apply its logged event (status, message, history, ListTasks)', async () => {
    const owner = 'no-snapshot';
    await a.createWith(task('ns'), owner, status('TASK_STATE_WORKING'));
    const [json] = await a.client.hmget(a.keys.task('ns').task, 'j');
    const done = {
      kind: 'status' as const,
      status: { ...status('TASK_STATE_COMPLETED').status, message: message('ok', 'ns', 'ctx') },
    };
    await a.append('ns', 2, done);
    // The hash has the new version and state, and still the snapshot of version 2.
    expect(await a.client.hmget(a.keys.task('ns').task, 'v', 'sv', 's', 'j')).toEqual([
      '3',
      '2',
      'TASK_STATE_COMPLETED',
      json,
    ]);
    const expected = a.peek('ns', 3)?.task;
    expect(expected?.status.message?.parts).toEqual([{ text: 'ok' }]);
    expect((await b.get('ns', owner))?.task).toEqual(expected);
    const page = await b.list(owner, { pageSize: 10, status: 'TASK_STATE_COMPLETED', historyLength: 1 });
    expect(page.tasks.map((t) => [t.status.state, t.history?.map((m) => m.messageId)])).toEqual([
      ['TASK_STATE_COMPLETED', ['m-ok']],
    ]);
    // The next append reads the task from Redis (b never wrote it), then writes on top of the unsnapshotted version.
    await expect(b.append('ns', 3, status('TASK_STATE_WORKING'))).rejects.toBeInstanceOf(A2AError);
    expect((await b.readEvents('ns', 0)).map((r) => r.state)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
  });

  it('scopes reads by owner, with owners and ids that are not plain strings', async () => {
    const id = 'odd {t:x} } % é \u0000';
    const owner = 'tenant\u0000user {o:y}';
    await a.create(task(id), owner);
    expect(await b.get(id, 'bob')).toBeUndefined();
    expect((await b.get(id, owner))?.task.id).toBe(id);
    expect((await b.list('bob', { pageSize: 10 })).tasks).toEqual([]);
    expect((await b.list(owner, { pageSize: 10 })).tasks.map((t) => t.id)).toEqual([id]);
    expect(a.keys.task(id).task).toBe(`${prefix}:{t:odd %7Bt:x%7D %7D %25 é \u0000}`);
  });

  it('lists newest status first with cursors and the filters', async () => {
    const owner = 'lister';
    for (const [id, ctx] of [
      ['l1', 'c1'],
      ['l2', 'c2'],
      ['l3', 'c1'],
    ] as const)
      await a.create(task(id, ctx), owner);
    await a.append('l1', 1, status('TASK_STATE_WORKING')); // l1 becomes the newest
    const all = await b.list(owner, { pageSize: 2 });
    expect(all.tasks.map((t) => t.id)).toEqual(['l1', 'l3']);
    expect(all.totalSize).toBe(3);
    const next = await b.list(owner, { pageSize: 2, pageToken: all.nextPageToken });
    expect(next.tasks.map((t) => t.id)).toEqual(['l2']);
    expect(next.nextPageToken).toBe('');
    const byContext = await b.list(owner, { pageSize: 1, contextId: 'c1' });
    expect(byContext.tasks.map((t) => t.id)).toEqual(['l1']);
    expect(byContext.totalSize).toBe(2);
    const more = await b.list(owner, { pageSize: 1, contextId: 'c1', pageToken: byContext.nextPageToken });
    expect(more.tasks.map((t) => t.id)).toEqual(['l3']);
    expect((await b.list(owner, { pageSize: 5, status: 'TASK_STATE_WORKING' })).tasks.map((t) => t.id)).toEqual(['l1']);
    const since = (await a.get('l1'))?.task.status.timestamp as string;
    expect((await b.list(owner, { pageSize: 5, statusTimestampAfter: since })).tasks.map((t) => t.id)).toEqual(['l1']);
    await expect(b.list(owner, { pageSize: 2, pageToken: 'bogus!' })).rejects.toBeInstanceOf(InvalidPageTokenError);
    await expect(b.list(owner, { pageSize: 2, pageToken: 'cGc6MTI' })).rejects.toBeInstanceOf(InvalidPageTokenError);
  });

  it('the ListTasks index, written with the task in one round trip, is repaired when the task write fails', async () => {
    await a.create(task('rep'), 'indexer');
    await a.append('rep', 1, status('TASK_STATE_WORKING')); // a's cache: version 2
    await b.append('rep', 2, status('TASK_STATE_INPUT_REQUIRED'));
    // As if a's index update for its (losing) COMPLETED write had reached Redis before b's.
    const meta = a.keys.owner('indexer').meta;
    const entry = JSON.parse((await a.client.hget(meta, 'rep')) as string);
    await a.client.hset(meta, 'rep', JSON.stringify({ ...entry, s: 'TASK_STATE_COMPLETED' }));
    await expect(a.append('rep', 2, status('TASK_STATE_COMPLETED'))).rejects.toBeInstanceOf(
      ConcurrentModificationError,
    );
    const byState = async (state: TaskState) =>
      (await b.list('indexer', { pageSize: 10, status: state })).tasks.map((t) => t.id);
    expect(await byState('TASK_STATE_COMPLETED')).toEqual([]);
    expect(await byState('TASK_STATE_INPUT_REQUIRED')).toEqual(['rep']);
    // A create that finds the id taken leaves no entry in its owner's index, and the owner's entry intact.
    await expect(b.create(task('rep'), 'intruder')).rejects.toThrow(/already exists/);
    expect(await b.list('intruder', { pageSize: 10 })).toEqual({ tasks: [], totalSize: 0, nextPageToken: '' });
    expect(await byState('TASK_STATE_INPUT_REQUIRED')).toEqual(['rep']);
  });

  it('a subscriber on B gets what A appends, from its cursor, without gap or duplicate, and ends at the end', async () => {
    await a.create(task('sub'), 'alice');
    await a.append('sub', 1, status('TASK_STATE_WORKING'));
    const seen: TaskEventRecord[] = [];
    const done = (async () => {
      for await (const record of b.subscribe('sub', 1)) seen.push(record);
    })();
    for (let i = 0; i < 30; i++) await a.append('sub', 2 + i, chunk(i));
    await a.append('sub', 32, status('TASK_STATE_COMPLETED'));
    await done;
    expect(seen.map((r) => r.seq)).toEqual(Array.from({ length: 32 }, (_, i) => i + 2));
    expect(seen.at(-1)?.state).toBe('TASK_STATE_COMPLETED');
    // Resume from any sequence, on either instance.
    const resumed: number[] = [];
    for await (const record of a.subscribe('sub', 20)) resumed.push(record.seq);
    expect(resumed).toEqual(Array.from({ length: 13 }, (_, i) => i + 21));
    expect(a.subscriptionCount + b.subscriptionCount).toBe(0);
  });

  it('a task subscribed while the tail is blocked on others is read at once (the blocked XREAD is interrupted)', async () => {
    const slow = await RedisTaskStore.connect({ url: server.url, keyPrefix: prefix, blockMs: 20_000 });
    try {
      await a.create(task('tail-1'), 'alice');
      await a.create(task('tail-2'), 'alice');
      const first = slow.subscribe('tail-1', 1)[Symbol.asyncIterator]();
      const firstNext = first.next(); // the tail now blocks on tail-1's stream for up to 20 s
      await new Promise((r) => setTimeout(r, 100));
      const second = slow.subscribe('tail-2', 1)[Symbol.asyncIterator]();
      const secondNext = second.next();
      await new Promise((r) => setTimeout(r, 100)); // its own first read is done: the rest must come from the tail
      const started = Date.now();
      await a.append('tail-2', 1, status('TASK_STATE_WORKING'));
      expect((await secondNext).value).toMatchObject({ taskId: 'tail-2', seq: 2 });
      expect(Date.now() - started).toBeLessThan(5000); // the tail blocks for 20 s: only an interrupted read is this quick
      await a.append('tail-1', 1, status('TASK_STATE_WORKING'));
      expect((await firstNext).value).toMatchObject({ taskId: 'tail-1', seq: 2 });
      await first.return?.();
      await second.return?.();
    } finally {
      await slow.close();
    }
  });

  it('Redis down at start-up: a clear error naming the server', async () => {
    await expect(RedisTaskStore.connect({ url: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /@a2a\/redis: cannot connect to Redis at 127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
    await expect(RedisTaskStore.connect({ url: 'localhost:1' })).rejects.toThrow(/not a URL of the form redis:\/\//);
  });

  it('a subscription ends when aborted, or when its iterator returns while waiting', async () => {
    await a.create(task('idle'), 'alice');
    const controller = new AbortController();
    const iterator = b.subscribe('idle', 1, controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    controller.abort();
    expect(await pending).toMatchObject({ done: true });
    const second = b.subscribe('idle', 1)[Symbol.asyncIterator]();
    const waiting = second.next();
    await second.return?.();
    expect(await waiting).toMatchObject({ done: true });
    expect(b.subscriptionCount).toBe(0);
    const gone: unknown[] = [];
    for await (const r of b.subscribe('never-created', 0)) gone.push(r);
    expect(gone).toEqual([]);
  });

  it('finished tasks expire with their stream and push configs; live ones do not', async () => {
    const short = await RedisTaskStore.connect({ url: server.url, keyPrefix: prefix, finishedTaskTtlMs: 300 });
    try {
      await short.create(task('exp-done'), 'exp');
      await short.create(task('exp-live'), 'exp');
      await short.savePushConfig({ taskId: 'exp-done', id: 'p', url: 'https://hooks.example.com/x' });
      await short.append('exp-done', 1, status('TASK_STATE_WORKING'));
      await short.append('exp-done', 2, status('TASK_STATE_COMPLETED'));
      // A delivery state without a saved config (the push keys are expired only for tasks that have push state).
      await short.create(task('exp-state'), 'exp-state');
      await short.deliveryState.set('exp-state', 'p', {
        lastDeliveredSeq: 1,
        health: 'active',
        consecutiveFailures: 0,
      });
      await short.append('exp-state', 1, status('TASK_STATE_FAILED'));
      expect((await short.list('exp', { pageSize: 10 })).totalSize).toBe(2);
      await new Promise((r) => setTimeout(r, 450));
      expect(await short.client.keys(`${prefix}:{t:exp-state}*`)).toEqual([]);
      expect(await short.get('exp-done')).toBeUndefined();
      expect(await short.readEvents('exp-done', 0)).toEqual([]);
      expect(await short.listPushConfigs('exp-done')).toEqual([]);
      expect((await short.get('exp-live'))?.task.status.state).toBe('TASK_STATE_SUBMITTED');
      const listed = await short.list('exp', { pageSize: 10 });
      expect(listed.tasks.map((t) => t.id)).toEqual(['exp-live']);
      expect(listed.totalSize).toBe(1);
      const keys = await short.client.keys(`${prefix}:{t:exp-done}*`);
      expect(keys).toEqual([]);
      // A subscriber already waiting past a finished task's last event ends when the task expires.
      await short.create(task('exp-wait'), 'exp');
      await short.append('exp-wait', 1, status('TASK_STATE_CANCELED'));
      const waiting = short.subscribe('exp-wait', 2)[Symbol.asyncIterator]();
      expect(await waiting.next()).toMatchObject({ done: true });
    } finally {
      await short.close();
    }
  });

  it('push configs: saved in order, read, listed, deleted; delivery cursors never move back', async () => {
    await a.create(task('push'), 'alice');
    await expect(a.savePushConfig({ taskId: 'nope', id: 'x', url: 'https://h.example.com' })).rejects.toThrow(
      /does not exist/,
    );
    await a.savePushConfig({ taskId: 'push', id: 'z', url: 'https://h.example.com/z' });
    await a.savePushConfig({ taskId: 'push', id: 'a', url: 'https://h.example.com/a' });
    await b.savePushConfig({ taskId: 'push', id: 'z', url: 'https://h.example.com/z2' });
    expect((await b.listPushConfigs('push')).map((c) => [c.id, c.url])).toEqual([
      ['z', 'https://h.example.com/z2'],
      ['a', 'https://h.example.com/a'],
    ]);
    expect((await b.getPushConfig('push', 'a'))?.url).toBe('https://h.example.com/a');
    expect(await a.deliveryState.get('push', 'z')).toBeUndefined();
    await a.deliveryState.set('push', 'z', { lastDeliveredSeq: 5, health: 'active', consecutiveFailures: 0 });
    await b.deliveryState.set('push', 'z', {
      lastDeliveredSeq: 3,
      health: 'failing',
      consecutiveFailures: 1,
      lastError: 'HTTP 500',
    });
    expect(await a.deliveryState.get('push', 'z')).toEqual({
      lastDeliveredSeq: 5,
      health: 'failing',
      consecutiveFailures: 1,
      lastError: 'HTTP 500',
    });
    await a.deletePushConfig('push', 'z');
    await a.deletePushConfig('push', 'z');
    expect((await b.listPushConfigs('push')).map((c) => c.id)).toEqual(['a']);
    expect(await b.getPushConfig('push', 'z')).toBeUndefined();
  });

  it('two writers racing on one task: each retries, no event is lost', async () => {
    await a.create(task('race'), 'alice');
    await a.append('race', 1, status('TASK_STATE_WORKING'));
    const write = async (store: RedisTaskStore, text: string) => {
      for (;;) {
        const current = await store.get('race');
        try {
          return await store.append('race', current?.version ?? 0, {
            kind: 'artifact',
            artifact: { artifactId: text, parts: [{ text }] },
          });
        } catch (error) {
          if (!(error instanceof ConcurrentModificationError)) throw error;
        }
      }
    };
    const records = await Promise.all(Array.from({ length: 20 }, (_, i) => write(i % 2 ? a : b, `w${i}`)));
    expect(new Set(records.map((r) => r.seq)).size).toBe(20);
    const stored = await a.get('race');
    expect(stored?.version).toBe(22);
    expect(stored?.task.artifacts?.map((x) => x.artifactId).sort()).toEqual(
      records.map((r) => (r.event as { artifact: { artifactId: string } }).artifact.artifactId).sort(),
    );
  });

  it('a lease handed over at shutdown is reaped at the next janitor tick, long before its TTL', async () => {
    const janitor = new RedisExecutionCoordinator({ store: b, leaseTtlMs: 300, instanceId: 'janitor' });
    const leaving = new RedisExecutionCoordinator({ store: a, leaseTtlMs: 600_000, instanceId: 'leaving' });
    try {
      await a.create(task('handed-over'), 'alice');
      await a.append('handed-over', 1, status('TASK_STATE_WORKING'));
      const lease = leaving.track({ taskId: 'handed-over', abort: () => {} });
      await leaving.tick();
      lease.release(true);
      const failed = await eventually(async () => {
        await janitor.tick();
        const found = (await b.get('handed-over'))?.task;
        return found?.status.state === 'TASK_STATE_FAILED' ? found : undefined;
      });
      expect(failed?.status.message?.parts[0]?.text).toMatch(/instance leaving stopped renewing/);
    } finally {
      janitor.close();
      leaving.close();
    }
  });

  it('fails a running task that never got a lease, not one whose lease is alive', async () => {
    const janitor = new RedisExecutionCoordinator({ store: b, leaseTtlMs: 300, instanceId: 'janitor' });
    const owner = new RedisExecutionCoordinator({ store: a, leaseTtlMs: 60_000, instanceId: 'alive' });
    try {
      for (const id of ['orphan', 'leased']) {
        await a.create(task(id), 'alice');
        await a.append(id, 1, status('TASK_STATE_WORKING'));
      }
      const lease = owner.track({ taskId: 'leased', abort: () => {} });
      await owner.tick();
      const orphan = await eventually(async () => {
        await janitor.tick();
        const found = (await b.get('orphan'))?.task;
        return found?.status.state === 'TASK_STATE_FAILED' ? found : undefined;
      });
      expect(orphan?.status.message?.parts[0]?.text).toMatch(/no running instance holds an execution lease/);
      expect((await b.get('leased'))?.task.status.state).toBe('TASK_STATE_WORKING');
      lease.release();
    } finally {
      janitor.close();
      owner.close();
    }
  });
});

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('eventually: timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
