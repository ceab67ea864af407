import type * as NodeModule from 'node:module';
import type IpAddr from 'ipaddr.js';

export type IpAddrModule = typeof IpAddr;

// ipaddr.js costs ~9 ms CPU to load on Node 20, for the push SSRF guard alone: it loads with the first guard (a push
// sender), not at start-up (docs/performance.md, "Cold start without Zod (issue 39)").
let loaded: IpAddrModule | undefined;
let loading: Promise<void> | undefined;
let required = false;

/**
 * ipaddr.js, loaded now if it was not: `require()` through `process.getBuiltinModule('node:module')` (Node, Bun,
 * Deno; as schemas/schemas-now.ts does), so the guard's synchronous checks work at once. `undefined` where the runtime
 * cannot (a bundle with no `node_modules` beside it, Workers): then an `import()`, which bundlers follow, has started,
 * and {@link ipAddrReady} says when it is done.
 */
export function ipAddrNow(): IpAddrModule | undefined {
  if (!loaded) void ipAddrReady().catch(() => {});
  return loaded;
}

/** Resolves once ipaddr.js is loaded (at once where {@link ipAddrNow} could load it). */
export function ipAddrReady(): Promise<void> {
  if (!loaded && !required) {
    required = true;
    loaded = requireNow();
  }
  if (loaded) return Promise.resolve();
  loading ??= import('ipaddr.js').then((module) => {
    loaded = ((module as { default?: IpAddrModule }).default ?? module) as IpAddrModule;
  });
  return loading;
}

function requireNow(): IpAddrModule | undefined {
  // The CommonJS build (scripts/build-cjs.mjs) rewrites import.meta.url to the CommonJS file's URL after compiling.
  // biome-ignore lint/suspicious/noTsIgnore: import.meta is an error under module=CommonJS, which does not reach the output
  // @ts-ignore
  const here: string = import.meta.url;
  try {
    const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const module = host.process?.getBuiltinModule?.('node:module') as typeof NodeModule | undefined;
    return module?.createRequire(here)('ipaddr.js') as IpAddrModule | undefined;
  } catch {
    return undefined;
  }
}
