import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

/**
 * A Redis Cluster with one replica per master, for the failover tests: `A2A_TEST_REDIS_REPLICA_CLUSTER_URL`, the seed
 * node of the 6 nodes that `A2A_REDIS_CLUSTER_REPLICAS=1 scripts/start-redis-cluster.sh` starts (ports from the
 * seed's on). The tests kill and demote its masters, then restore it with the same script (it starts the dead node
 * again, which rejoins as a replica). Without one the failover tests are skipped with a loud line.
 */
export const replicaClusterUrl = process.env.A2A_TEST_REDIS_REPLICA_CLUSTER_URL || undefined;
if (!replicaClusterUrl) {
  console.warn(
    '!!! [@a2a/redis] SKIPPING the Redis Cluster failover tests: no A2A_TEST_REDIS_REPLICA_CLUSTER_URL (A2A_REDIS_CLUSTER_REPLICAS=1 scripts/start-redis-cluster.sh) !!!',
  );
}

export interface ClusterNode {
  id: string;
  port: number;
  master: boolean;
  /** A replica's master id. */
  masterId: string | undefined;
  /** The slot ranges a master serves. */
  slots: [number, number][];
}

const SCRIPT = fileURLToPath(new URL('../../../scripts/start-redis-cluster.sh', import.meta.url));
const NODES = 6;

async function ask<T>(port: number, run: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await run(client);
  } finally {
    client.disconnect();
  }
}

const seedPort = (url: string) => Number(new URL(url).port);
const ports = (url: string) => Array.from({ length: NODES }, (_, i) => seedPort(url) + i);

/** The topology as the first node that answers sees it, dead (`fail`) nodes left out. */
export async function topology(url: string): Promise<ClusterNode[]> {
  for (const port of ports(url)) {
    const text = await ask(port, (c) => c.cluster('NODES') as Promise<string>).catch(() => undefined);
    if (text === undefined) continue;
    return text
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .filter((f) => !/fail|noaddr|handshake/.test(f[2] ?? ''))
      .map((f) => ({
        id: f[0] as string,
        port: Number((f[1] ?? '').split('@')[0]?.split(':')[1]),
        master: (f[2] ?? '').includes('master'),
        masterId: f[3] === '-' ? undefined : f[3],
        slots: f
          .slice(8)
          .filter((r) => !r.startsWith('['))
          .map((r) => {
            const [from, to] = r.split('-').map(Number);
            return [from, to ?? from] as [number, number];
          }),
      }));
  }
  throw new Error('no node of the replica cluster answers');
}

/** The master serving a key's slot and its replica. */
export async function shardOf(url: string, key: string): Promise<{ master: ClusterNode; replica: ClusterNode }> {
  const slot = await ask(seedPort(url), (c) => c.cluster('KEYSLOT', key) as Promise<number>).catch(() =>
    ask(seedPort(url) + 1, (c) => c.cluster('KEYSLOT', key) as Promise<number>),
  );
  const nodes = await topology(url);
  const master = nodes.find((n) => n.master && n.slots.some(([from, to]) => slot >= from && slot <= to));
  const replica = nodes.find((n) => n.masterId === master?.id);
  if (!master || !replica) throw new Error(`slot ${slot} has no master with a replica: is it a replica cluster?`);
  return { master, replica };
}

/** The node's server process id (INFO server). */
export async function pidOf(node: ClusterNode): Promise<number> {
  const info = await ask(node.port, (c) => c.info('server'));
  return Number(/^process_id:(\d+)/m.exec(info)?.[1]);
}

export async function command(node: ClusterNode, ...args: (string | number)[]): Promise<unknown> {
  return ask(node.port, (c) => c.call(args[0] as string, ...args.slice(1)));
}

/** Whether the node is a master now, as it says itself. */
export async function isMaster(node: ClusterNode): Promise<boolean> {
  const info = await ask(node.port, (c) => c.info('replication')).catch(() => '');
  return /^role:master\r?$/m.test(info);
}

/**
 * Back to 6 nodes, all in sync: the script starts the nodes that are down (with the cluster's own state dir, binary
 * and node timeout, read from a live node), then every replica has its master link up and every master a replica.
 */
export async function restore(url: string): Promise<void> {
  const live = (await topology(url))[0] as ClusterNode;
  const [, dir] = (await command(live, 'CONFIG', 'GET', 'dir')) as [string, string];
  const [, timeout] = (await command(live, 'CONFIG', 'GET', 'cluster-node-timeout')) as [string, string];
  const info = await ask(live.port, (c) => c.info('server'));
  const executable = /^executable:(.+?)\r?$/m.exec(info)?.[1];
  await promisify(execFile)('bash', [SCRIPT, 'start'], {
    env: {
      ...process.env,
      A2A_REDIS_CLUSTER_PORT: String(seedPort(url)),
      A2A_REDIS_CLUSTER_REPLICAS: '1',
      A2A_REDIS_CLUSTER_STATE: dirname(dir),
      A2A_REDIS_CLUSTER_NODE_TIMEOUT: timeout,
      ...(executable && { A2A_REDIS_SERVER: executable }),
    },
  });
  for (let i = 0; ; i++) {
    const nodes = await topology(url).catch(() => []);
    const masters = nodes.filter((n) => n.master && n.slots.length > 0);
    const replicas = nodes.filter((n) => !n.master);
    const linked = await Promise.all(
      replicas.map((n) =>
        ask(n.port, (c) => c.info('replication'))
          .then((r) => /^master_link_status:up\r?$/m.test(r))
          .catch(() => false),
      ),
    );
    if (
      nodes.length === NODES &&
      masters.length === 3 &&
      masters.every((m) => replicas.some((r) => r.masterId === m.id)) &&
      linked.every(Boolean)
    )
      return;
    if (i > 300) throw new Error('the replica cluster did not come back to 3 masters with a replica each');
    await new Promise((r) => setTimeout(r, 100));
  }
}
