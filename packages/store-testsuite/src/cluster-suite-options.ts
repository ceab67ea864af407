import type { Instance } from './cluster-harness.js';

/** A fresh backend for one suite: what its instances share. */
export interface ClusterBackend {
  /** The environment every instance gets (its store's URL, a key prefix of the suite's own...). */
  env: Record<string, string>;
  /** Drops the backend after the suite (a test database, a key prefix). */
  release(): Promise<void>;
}

export interface ClusterSuiteOptions {
  /** The instance program: a TypeScript file that calls `serveClusterInstance` (see `instanceStarter`). */
  script: string;
  /** Opened before the suite's instances start, released after they stop. */
  backend(): Promise<ClusterBackend>;
}

/** Starts instances in order: the first alone (it may run the store's migrations), the others together. */
export async function startAll(
  start: (name: string, env: Record<string, string>) => Promise<Instance>,
  names: string[],
  env: Record<string, string>,
): Promise<Instance[]> {
  const [first = 'a', ...rest] = names;
  const head = await start(first, env);
  return [head, ...(await Promise.all(rest.map((name) => start(name, env))))];
}
