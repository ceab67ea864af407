import { A2AError } from '@a2a/core';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
// Server replies that mean "not now" (loading after a restart, a replica during failover, a cluster reshaping;
// NOSCRIPT: a restarted server lost its scripts, and ioredis's one resend met it again: the script did not run, and
// the socket is marked for EVAL, so the caller's retry loads it; MOVED/ASK: a failover or resharding moved the slot
// and ioredis did not follow, which it does not for an auto-pipelined batch whose commands were redirected with
// different slots, or not all of them: the command did not run, and the caller's retry goes to the new node).
const UNAVAILABLE_REPLY = /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY|MISCONF|NOSCRIPT|MOVED|ASK)\b/;

/** True for errors of a lost, refused or timed-out Redis connection, or a server that cannot serve right now. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return (
    UNAVAILABLE_REPLY.test(error.message) ||
    /Connection is closed|Command timed out|Stream isn't writeable|connect ETIMEDOUT|Socket closed unexpectedly|Connection lost/i.test(
      error.message,
    ) ||
    // An auto-pipelined batch grouped by the slot map before a failover, sent after it: ioredis refuses it unsent.
    /should belong to the same slots allocation group/.test(error.message) ||
    // What ioredis gives up with when a connection or the cluster goes away under a command: a pipeline's command
    // still unanswered when its connection closed (a durable write's WAIT when the master is killed: the script may
    // have run, as for any lost connection), a cluster connection aborted or ended, redirections or CLUSTERDOWN
    // retries run out, no node reachable or none ready (cluster-client.ts).
    /^(Command aborted due to connection close|Connection is aborted|Cluster is ended|Node is disconnected|Too many Cluster redirections|None of startup nodes is available|Cluster isn't ready)\b/.test(
      error.message,
    )
  );
}

/** A redirection ioredis did not follow (see UNAVAILABLE_REPLY): the slot moved, the command did not run. */
export const isRedirection = (error: unknown): boolean => error instanceof Error && /^(MOVED|ASK) /.test(error.message);

/** Connection failures become A2A `Unavailable` (HTTP 503, JSON-RPC -32603); other errors pass through. */
export function storeError(error: unknown): unknown {
  if (!isConnectionError(error)) return error;
  return new A2AError('Unavailable', 'The task store is temporarily unavailable; retry later', { cause: error });
}

/** A start-up error that names the server it tried (without its password). */
export function connectionError(error: unknown, url: string | undefined): Error {
  const where = url === undefined ? 'the client passed in' : describeUrl(url);
  const reason =
    error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return new Error(`@a2a/redis: cannot connect to Redis at ${where}: ${reason}`, { cause: error });
}

/** A Cluster node opened in standalone mode: `RedisTaskStore.connect()` and `createRedisTaskStore()` then retry in Cluster mode. */
export class ClusterNodeError extends Error {}

/** A start-up error for a Redis Cluster node opened in standalone mode (README, "Redis Cluster"). */
export function clusterError(url: string | undefined): Error {
  const where = url === undefined ? 'the client passed in' : describeUrl(url);
  return new ClusterNodeError(
    `@a2a/redis: ${where} is a Redis Cluster node; the standalone mode's status writes and stream tail span several hash slots: pass a Cluster client with \`cluster: true\`, or a url (the Cluster mode is then chosen at start-up)`,
  );
}

/** `host:port/db` of a `redis://` URL (its password hidden), else the string itself and what a URL looks like. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:') {
      return `${parsed.hostname || '127.0.0.1'}:${parsed.port || 6379}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
    }
  } catch {}
  return `'${url.replace(/:[^:@/]*@/, ':***@')}' (not a URL of the form redis://[:password@]host:6379[/db])`;
}
