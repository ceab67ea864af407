import { A2AError } from '@a2a/core';
import { type RedisClient, type ScriptName, scriptCommand } from './scripts.js';

/**
 * The `wait` option (README, "Durability"): a write is acknowledged only once this many replicas of its master
 * have confirmed it (Redis's WAIT), so a failover that promotes one of them keeps it.
 */
export interface ReplicaWait {
  /** Replicas that must confirm a write (`WAIT numreplicas`). */
  replicas: number;
  /** How long a write waits for them (ms); short of them by then, it fails as `Unavailable`. */
  timeoutMs: number;
}

/**
 * The scripts that write what a failover must keep: tasks, their events, ListTasks entries, running marks, push
 * configs and delivery state. Reads are never waited for, nor are the leases (a lease a failover loses is taken
 * again by its renewal, and the janitor reads tasks, not leases).
 */
const DURABLE_WRITES: ReadonlySet<ScriptName> = new Set<ScriptName>([
  'a2aCreate',
  'a2aCreateTask',
  'a2aAppend',
  'a2aAppendPublish',
  'a2aAppendStatus',
  'a2aIndex',
  'a2aMarkRunning',
  'a2aSavePush',
  'a2aSetDelivery',
]);

export const isDurableWrite = (name: ScriptName): boolean => DURABLE_WRITES.has(name);

/**
 * Runs a script and WAITs on the same connection right after it, in one pipeline: WAIT counts the replicas that
 * have everything this connection wrote, and in Cluster mode a pipeline goes to the node of its keys' slot, so it
 * waits on the master that ran the script (a keyless WAIT alone would go to any node).
 * A script that failed is thrown as such. One that ran but that too few replicas confirmed in time fails as
 * `Unavailable` (it may still be there, or be lost by a failover): the engine's write retry then finds out which
 * (the version it reads says whether the event landed).
 */
export async function runScriptReplicated(
  client: RedisClient,
  name: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
  wait: ReplicaWait,
): Promise<unknown> {
  const pipeline = client.pipeline();
  scriptCommand(pipeline, name).call(pipeline, ...keys, ...args);
  pipeline.call('WAIT', wait.replicas, wait.timeoutMs);
  const replies = (await pipeline.exec()) ?? [];
  const [scriptError, result] = replies[0] ?? [new Error(`no reply to ${name}`), undefined];
  // ioredis follows a redirection of a pipeline only when every command in it was redirected, and the keyless WAIT
  // never is (a failover moved the slot: MOVED; a resharding: ASK). The script did not run: the store's `call` answers
  // the error as `Unavailable` (errors.ts) and refreshes the slot map for the caller's retry, as for any command.
  if (scriptError) throw scriptError;
  const [waitError, confirmed] = replies[1] ?? [new Error('no reply to WAIT'), undefined];
  if (waitError) throw waitError;
  if (Number(confirmed) < wait.replicas) {
    throw new A2AError(
      'Unavailable',
      `The task store applied the write but only ${Number(confirmed)} of ${wait.replicas} replica(s) confirmed it within ${wait.timeoutMs} ms; retry later`,
    );
  }
  return result;
}
