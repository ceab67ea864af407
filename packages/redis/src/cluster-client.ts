import { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';

/**
 * An ioredis `Cluster` seeded with the node of a `redis://[[user]:password@]host:port` URL (the others are found with
 * CLUSTER SLOTS); the URL's credentials and `rediss:` apply to every node. MOVED/ASK redirections and topology
 * changes are ioredis's.
 */
export function clusterFromUrl(url: string, redisOptions: RedisOptions, clusterOptions: ClusterOptions = {}): Cluster {
  const parsed = new URL(url);
  const auth: RedisOptions = {
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === 'rediss:' && { tls: {} }),
  };
  const options: ClusterOptions = {
    lazyConnect: true,
    enableAutoPipelining: true,
    // A failover or CLUSTERDOWN is retried briefly; longer outages fail the command as Unavailable (errors.ts).
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 16,
    // No waiting for nodes: with every node unreachable (or none serving slots), ioredis would hold a command in its
    // offline queue until the cluster is back, so each request would hang. Refused at once instead ("Cluster isn't
    // ready"), answered as Unavailable (errors.ts), as the standalone mode answers within seconds. The store connects
    // before its first command; its subscriber duplicates queue again (they subscribe while connecting).
    enableOfflineQueue: false,
    ...clusterOptions,
    redisOptions: { ...auth, ...redisOptions },
  };
  // ioredis's constructor type adds `replyMapping`, which does not type-check under `exactOptionalPropertyTypes`.
  const seed = { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) };
  return new Cluster([seed], options as ConstructorParameters<typeof Cluster>[1]);
}
