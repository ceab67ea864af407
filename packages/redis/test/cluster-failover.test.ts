import { type Listening, listen } from '@a2a/adapter-testsuite';
import { createA2AHandler, isA2AError, newTask, type TaskEvent, type TaskEventRecord } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { eventually, message } from '@a2a/store-testsuite/cluster';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore, RedisTaskStore, type ReplicaWait } from '../src/index.js';
import { freshPrefix } from './redis.js';
import { type ClusterNode, command, isMaster, pidOf, replicaClusterUrl, restore, shardOf } from './replica-cluster.js';

/**
 * A master of a Redis Cluster with replicas (A2A_TEST_REDIS_REPLICA_CLUSTER_URL) fails over to its replica while an
 * engine answers SendMessage on it and a task in the master's slots is written on one instance and followed from
 * another. Each test restores the cluster afterwards (the old master rejoins as a replica).
 */
describe.runIf(replicaClusterUrl)('a Redis Cluster master fails over to its replica under running stores', () => {
  const url = replicaClusterUrl as string;
  beforeAll(() => restore(url), 60_000);
  afterEach(() => restore(url), 60_000);

  /**
   * SendMessage from six workers through the engine of one instance, and a task written on that instance and
   * followed from another, while `failover` moves the followed task's slots to the replica.
   */
  async function underFailover(
    name: string,
    wait: ReplicaWait | undefined,
    failover: (shard: { master: ClusterNode; replica: ClusterNode }) => Promise<void>,
  ) {
    const prefix = freshPrefix(name);
    const setup = await createRedisTaskStore({ url, keyPrefix: prefix, ...(wait && { wait }), onError: () => {} });
    const reader = await RedisTaskStore.connect({ url, keyPrefix: prefix, blockMs: 1000, onError: () => {} });
    const a2a = createA2AHandler({
      agentCard: {
        name,
        description: 'failover test agent',
        version: '1.0.0',
        capabilities: { streaming: true },
        skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      },
      executor: {
        async execute(ctx) {
          await ctx.working();
          await ctx.complete(`echo: ${ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('')}`);
        },
      },
      taskStore: setup.taskStore,
      coordinator: setup.coordinator,
      onError: () => {},
    });
    const server: Listening = await listen(createNodeHandler(a2a));
    const writer = setup.redis;
    const id = 'followed';
    const shard = await shardOf(url, writer.keys.task(id).task);
    try {
      // The SendMessage workers: every request answers, a success or a clean 503. With `wait` the slowest one lasts
      // about the whole outage (7–9 s measured at load 7–12, docs/performance.md): the bound is a hang guard with room
      // for a slow CI machine, not a latency figure.
      let flowing = true;
      const acknowledged: string[] = [];
      const outcomes: { status: number; ms: number }[] = [];
      const unexpected: unknown[] = [];
      const worker = async (w: number) => {
        for (let i = 0; flowing; i++) {
          const started = Date.now();
          const response = await fetch(`${server.url}/message:send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ message: message(`w${w} #${i}`) }),
            signal: AbortSignal.timeout(20_000), // a request that hangs fails the test
          });
          const body = await response.json();
          outcomes.push({ status: response.status, ms: Date.now() - started });
          if (response.status === 200 && body.task.status.state === 'TASK_STATE_COMPLETED') {
            acknowledged.push(body.task.id);
          } else {
            if (response.status !== 503 || body.error?.status !== 'UNAVAILABLE') unexpected.push(body);
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      };

      // The followed task: each chunk retried until it is acknowledged; a write whose answer was lost (or whose
      // replicas did not confirm it) may have landed, which the version read after it says.
      const ts = new Date().toISOString();
      const first = { ...message('go'), role: 'ROLE_USER' as const, taskId: id, contextId: 'ctx' };
      await writer.create(newTask(id, 'ctx', first, ts), 'o');
      let version = 1;
      const appended: number[] = [];
      const write = async (event: TaskEvent) => {
        for (;;) {
          try {
            version = (await writer.append(id, version, event)).seq;
            appended.push(version);
            return;
          } catch (error) {
            if (!isA2AError(error) && !(error instanceof Error && /version/.test(error.message))) throw error;
            const stored = await writer.get(id).catch(() => undefined);
            if (stored && stored.version > version) {
              version = stored.version; // it had landed
              return;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      const chunk = (i: number): TaskEvent => ({
        kind: 'artifact',
        artifact: { artifactId: 'out', parts: [{ text: `${i},` }] },
        append: i > 0,
      });
      const seen: TaskEventRecord[] = [];
      const followed = (async () => {
        for await (const record of reader.subscribe(id, 1)) seen.push(record);
      })();

      const workers = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
      await write({ kind: 'status', status: { state: 'TASK_STATE_WORKING', timestamp: ts } });
      for (let i = 0; i < 20; i++) await write(chunk(i));
      await eventually(() => seen.length >= 21 || undefined);
      const beforeFailover = acknowledged.length;

      // Written on through the failover, and for 10 chunks after it.
      let failedOver = false;
      let chunks = 20;
      const writing = (async () => {
        for (let after = 0; after < 10; chunks++) {
          await write(chunk(chunks));
          if (failedOver) after++;
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      await failover(shard);
      await eventually(() => isMaster(shard.replica).then((yes) => yes || undefined), 20_000);
      failedOver = true;
      await writing;
      await eventually(() => acknowledged.length > beforeFailover + 20 || undefined, 15_000);
      flowing = false;
      await workers;
      await write({ kind: 'status', status: { state: 'TASK_STATE_COMPLETED', timestamp: ts } });
      await followed;

      expect(beforeFailover).toBeGreaterThan(0);
      expect(unexpected).toEqual([]);
      expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(20_000);
      // Every SendMessage acknowledged is readable, finished, from the other instance after the failover. A read may
      // still meet the reader's slot map from before it (MOVED in an auto-pipelined batch): `Unavailable`, retried as
      // a client retries a 503; a task that is not there fails the check when the bound runs out.
      const readBack = (task: string) => eventually(() => reader.get(task));
      for (let i = 0; i < acknowledged.length; i += 25) {
        const reads = await Promise.all(acknowledged.slice(i, i + 25).map(readBack));
        for (const read of reads) expect(read?.task.status.state).toBe('TASK_STATE_COMPLETED');
      }
      // The follower saw every event once, in order, and the log holds every chunk once.
      expect(seen.map((r) => r.seq)).toEqual(Array.from({ length: chunks + 2 }, (_, i) => i + 2));
      const stored = await readBack(id);
      const text = stored?.task.artifacts?.[0]?.parts.map((p) => ('text' in p ? p.text : '')).join('');
      expect(text).toBe(Array.from({ length: chunks }, (_, i) => `${i},`).join(''));
      const logged = new Set((await eventually(() => reader.readEvents(id, 1))).map((r) => r.seq));
      for (const seq of appended) expect(logged.has(seq)).toBe(true);
    } finally {
      await server.close();
      await setup.close();
      await reader.close();
    }
  }

  it('the master is killed (SIGKILL) and its replica takes over: with `wait`, nothing acknowledged is lost', async () => {
    await underFailover('cfkill', { replicas: 1, timeoutMs: 1000 }, async (shard) => {
      process.kill(await pidOf(shard.master), 'SIGKILL');
      // The promoted replica has no replica of its own: with `wait` its writes fail (applied, unconfirmed) until
      // the dead node is back as its replica, which an operator (here the start script) brings about.
      await eventually(() => isMaster(shard.replica).then((yes) => yes || undefined), 20_000);
      await restore(url);
    });
  }, 90_000);

  it('a manual CLUSTER FAILOVER on the replica (graceful) loses nothing acknowledged, even without `wait`', async () => {
    await underFailover('cfmanual', undefined, async (shard) => {
      expect(await command(shard.replica, 'CLUSTER', 'FAILOVER')).toBe('OK');
    });
  }, 90_000);

  it('`wait`: a write that no replica confirms in time fails as Unavailable, though it was applied', async () => {
    const prefix = freshPrefix('cfwait');
    const waiting = await RedisTaskStore.connect({ url, keyPrefix: prefix, wait: { replicas: 1, timeoutMs: 300 } });
    const plain = await RedisTaskStore.connect({ url, keyPrefix: prefix });
    const id = 'unconfirmed';
    const { replica } = await shardOf(url, waiting.keys.task(id).task);
    const pid = await pidOf(replica);
    try {
      const ts = new Date().toISOString();
      const first = { ...message('go'), role: 'ROLE_USER' as const, taskId: id, contextId: 'ctx' };
      await waiting.create(newTask(id, 'ctx', first, ts), 'o');
      const working: TaskEvent = { kind: 'status', status: { state: 'TASK_STATE_WORKING', timestamp: ts } };
      process.kill(pid, 'SIGSTOP'); // the replica stops acknowledging what it is sent
      let refusal: unknown;
      try {
        await waiting.append(id, 1, working).catch((error: unknown) => {
          refusal = error;
        });
        // Without `wait` the same kind of write is acknowledged at once.
        await plain.append(id, 2, { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: 'x' }] } });
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      expect(isA2AError(refusal) && refusal.type).toBe('Unavailable');
      expect((refusal as Error).message).toMatch(/0 of 1 replica/);
      // Applied on the master all the same: the engine's retry reads the version and finds its event there.
      expect((await plain.get(id))?.version).toBe(3);
    } finally {
      await waiting.close();
      await plain.close();
    }
  }, 30_000);
});
