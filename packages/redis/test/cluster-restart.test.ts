import { isA2AError, newTask, type TaskEvent, type TaskEventRecord } from '@a2a/core';
import { eventually, message } from '@a2a/store-testsuite/cluster';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../src/index.js';
import { clusterUrl, type OwnCluster, startOwnCluster } from './cluster.js';
import { freshPrefix, hasServerBinary } from './redis.js';

/**
 * A Cluster node crashes (SIGKILL) and comes back while a task in its slots is written and followed from another
 * instance, on a 3-master cluster of this file's own with `appendfsync always` (what a node acknowledged is on disk).
 * Runs where the Cluster tests run (A2A_TEST_REDIS_CLUSTER_URL set: the machine can form a cluster).
 */
describe.runIf(clusterUrl && hasServerBinary)('a Redis Cluster node restarts under running stores', () => {
  let cluster: OwnCluster;

  beforeAll(async () => {
    cluster = await startOwnCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('a subscriber on another instance resumes after the crash: no gap, no duplicate, nothing acknowledged lost', async () => {
    const prefix = freshPrefix('crestart');
    // The reader's periodic version check is far beyond the test: the events must come through the wake-ups, so a
    // shard subscriber that did not come back after the crash fails the test (it would hang).
    const writer = await RedisTaskStore.connect({ url: cluster.url, keyPrefix: prefix, onError: () => {} });
    const reader = await RedisTaskStore.connect({
      url: cluster.url,
      keyPrefix: prefix,
      blockMs: 600_000,
      onError: () => {},
    });
    expect([writer.cluster, reader.cluster]).toEqual([true, true]);
    const id = 'resume';
    const node = await cluster.nodeOf(writer.keys.task(id).task);
    try {
      const ts = new Date().toISOString();
      const first = { ...message('go'), role: 'ROLE_USER' as const, taskId: id, contextId: 'ctx' };
      await writer.create(newTask(id, 'ctx', first, ts), 'o');
      let version = 1;
      const acknowledged: number[] = [];
      let refused = 0;
      const write = async (event: TaskEvent) => {
        // As the engine does: retry while the node is unavailable; a write whose answer was lost may have landed.
        for (;;) {
          try {
            version = (await writer.append(id, version, event)).seq;
            acknowledged.push(version);
            return;
          } catch (error) {
            if (!isA2AError(error) && !(error instanceof Error && /version/.test(error.message))) throw error;
            refused++;
            const stored = await writer.get(id).catch(() => undefined);
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
        for await (const record of reader.subscribe(id, 1)) seen.push(record);
      })();
      await write({ kind: 'status', status: { state: 'TASK_STATE_WORKING', timestamp: ts } });
      const chunk = (i: number): TaskEvent => ({
        kind: 'artifact',
        artifact: { artifactId: 'out', parts: [{ text: `${i},` }] },
        append: i > 0,
      });
      for (let i = 0; i < 20; i++) await write(chunk(i));
      await eventually(() => seen.length >= 21 || undefined);
      await node.stop('SIGKILL');
      const during = write(chunk(20)); // refused until the node is back
      await new Promise((r) => setTimeout(r, 1000));
      await node.start();
      await cluster.healthy();
      await during;
      expect(refused).toBeGreaterThan(0); // the crash was met, not slept through
      for (let i = 21; i < 40; i++) await write(chunk(i));
      await write({ kind: 'status', status: { state: 'TASK_STATE_COMPLETED', timestamp: ts } });
      await done;
      expect(seen.map((r) => r.seq)).toEqual(Array.from({ length: 42 }, (_, i) => i + 2));
      const stored = await reader.get(id);
      const text = stored?.task.artifacts?.[0]?.parts.map((p) => ('text' in p ? p.text : ''));
      expect(text?.join('')).toBe(Array.from({ length: 40 }, (_, i) => `${i},`).join(''));
      // Every append acknowledged to the writer is in the log after the crash.
      const logged = new Set((await reader.readEvents(id, 1)).map((r) => r.seq));
      for (const seq of acknowledged) expect(logged.has(seq)).toBe(true);
      const listed = await reader.list('o', { pageSize: 10, status: 'TASK_STATE_COMPLETED' });
      expect(listed.tasks.map((t) => t.id)).toEqual([id]);
    } finally {
      await writer.close();
      await reader.close();
    }
  }, 60_000);

  it('a subscriber whose shard pub/sub connections are all killed at once subscribes again and misses nothing', async () => {
    const prefix = freshPrefix('ckill');
    const writer = await RedisTaskStore.connect({ url: cluster.url, keyPrefix: prefix, onError: () => {} });
    // Checks every 300 ms: ioredis does not always subscribe again after losing several nodes' subscriber
    // connections at once, and the check is what notices (shard-tail.ts).
    const reader = await RedisTaskStore.connect({
      url: cluster.url,
      keyPrefix: prefix,
      blockMs: 300,
      onError: () => {},
    });
    const ids = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
    try {
      const ts = new Date().toISOString();
      for (const id of ids) {
        const first = { ...message('go'), role: 'ROLE_USER' as const, taskId: id, contextId: 'ctx' };
        await writer.create(newTask(id, 'ctx', first, ts), 'o');
      }
      const seen = new Map<string, number[]>(ids.map((id) => [id, []]));
      const done = ids.map(async (id) => {
        for await (const record of reader.subscribe(id, 1)) seen.get(id)?.push(record.seq);
      });
      const chunk = (i: number): TaskEvent => ({
        kind: 'artifact',
        artifact: { artifactId: 'out', parts: [{ text: `${i},` }] },
        append: i > 0,
      });
      // Subscribed: every followed task's channel has this reader's subscriber on its node.
      const subscribers = async (id: string) => {
        const channel = reader.keys.task(id).wake;
        const admin = new Redis((await cluster.nodeOf(channel)).url);
        try {
          return ((await admin.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number])[1];
        } finally {
          admin.disconnect();
        }
      };
      const subscribed = async () => (await Promise.all(ids.map(subscribers))).every((n) => n === 1);
      let version = 1;
      const writeAll = async () => {
        await Promise.all(ids.map((id) => writer.append(id, version, chunk(version - 1))));
        version++;
      };
      for (let i = 0; i < 10; i++) await writeAll();
      await eventually(() => ids.every((id) => (seen.get(id)?.length ?? 0) >= 10) || undefined);
      expect(await subscribed()).toBe(true);
      // Every sharded subscriber connection on every node (only this file's stores use this cluster).
      let killed = 0;
      for (const node of cluster.nodes) {
        const admin = new Redis(node.url);
        killed += Number(await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub'));
        admin.disconnect();
      }
      // Writing on, a chunk per task every 100 ms, until the reader has subscribed again everywhere.
      for (let tries = 0; !(await subscribed()); tries++) {
        if (tries > 100) throw new Error('the reader did not subscribe again');
        await writeAll();
        await new Promise((r) => setTimeout(r, 100));
      }
      for (let i = 0; i < 5; i++) await writeAll();
      const last = version;
      await Promise.all(
        ids.map((id) =>
          writer.append(id, last, { kind: 'status', status: { state: 'TASK_STATE_COMPLETED', timestamp: ts } }),
        ),
      );
      await Promise.all(done);
      expect(killed).toBeGreaterThan(0);
      for (const id of ids) expect(seen.get(id)).toEqual(Array.from({ length: last }, (_, i) => i + 2));
    } finally {
      await writer.close();
      await reader.close();
    }
  }, 60_000);
});
