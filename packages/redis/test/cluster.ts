import { Redis } from 'ioredis';
import { type RedisServer, startRedisServer } from './redis.js';

/**
 * A Redis Cluster for the Cluster mode's tests: `A2A_TEST_REDIS_CLUSTER_URL`, the seed node of the 3-master cluster
 * that scripts/start-redis-cluster.sh starts (`.ci/run` does). Without one the Cluster tests are skipped with a loud
 * line, under CI too: a machine where the cluster cannot start still runs everything else.
 */
export const clusterUrl = process.env.A2A_TEST_REDIS_CLUSTER_URL || undefined;
if (!clusterUrl) {
  console.warn(
    '!!! [@a2a/redis] SKIPPING the Redis Cluster tests: no A2A_TEST_REDIS_CLUSTER_URL (scripts/start-redis-cluster.sh) !!!',
  );
}

/** CLUSTER KEYSLOT of each key, asked of the cluster itself. */
export async function keySlots(url: string, keys: string[]): Promise<number[]> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    return await Promise.all(keys.map((key) => client.cluster('KEYSLOT', key) as Promise<number>));
  } finally {
    client.disconnect();
  }
}

export interface OwnCluster {
  url: string;
  nodes: RedisServer[];
  /** The node serving a key's slot. */
  nodeOf(key: string): Promise<RedisServer>;
  /** Waits until every node reports `cluster_state:ok`. */
  healthy(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A 3-master cluster of this test's own (fault tests restart its nodes): redis-servers from startRedisServer with
 * `cluster-enabled` and `appendfsync always` (what a node acknowledged is on disk), slots split three ways with
 * CLUSTER ADDSLOTSRANGE, joined with CLUSTER MEET. Each node's cluster bus is its port + 10000.
 */
export async function startOwnCluster(): Promise<OwnCluster> {
  const nodes: RedisServer[] = [];
  const connect = async (node: RedisServer) => {
    const client = new Redis(node.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    return client;
  };
  const ask = async <T>(node: RedisServer, run: (client: Redis) => Promise<T>): Promise<T> => {
    const client = await connect(node);
    try {
      return await run(client);
    } finally {
      client.disconnect();
    }
  };
  try {
    for (let i = 0; i < 3; i++) nodes.push(await startRedisServer({ cluster: true, appendfsync: 'always' }));
    const ranges = [
      [0, 5460],
      [5461, 10922],
      [10923, 16383],
    ];
    await Promise.all(
      nodes.map((node, i) => ask(node, (c) => c.call('CLUSTER', 'ADDSLOTSRANGE', ...(ranges[i] as number[])))),
    );
    await ask(nodes[0] as RedisServer, async (c) => {
      for (const node of nodes.slice(1)) await c.call('CLUSTER', 'MEET', '127.0.0.1', node.port);
    });
  } catch (error) {
    await Promise.all(nodes.map((node) => node.destroy()));
    throw error;
  }
  const healthy = async () => {
    for (let i = 0; ; i++) {
      const states = await Promise.all(
        nodes.map((node) => ask(node, (c) => c.cluster('INFO') as Promise<string>).catch(() => '')),
      );
      if (states.every((info) => /^cluster_state:ok\r?$/m.test(info) && /^cluster_known_nodes:3\r?$/m.test(info)))
        return;
      if (i > 300) throw new Error(`the test cluster did not reach cluster_state:ok: ${states.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await healthy();
  const first = nodes[0] as RedisServer;
  return {
    url: first.url,
    nodes,
    healthy,
    nodeOf: async (key) => {
      const slot = await ask(first, (c) => c.cluster('KEYSLOT', key) as Promise<number>);
      return nodes[slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2] as RedisServer;
    },
    destroy: async () => {
      await Promise.all(nodes.map((node) => node.destroy()));
    },
  };
}
