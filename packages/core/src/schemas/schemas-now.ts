import type * as NodeModule from 'node:module';
import type * as Schemas from './index.js';

/**
 * `@a2a/core/schemas` (the Zod schemas) loaded synchronously, for the one check that must answer at once with field
 * names (the agent card at setup) and only when the generated validator refused: `require()` of the package's own
 * CommonJS build through `process.getBuiltinModule('node:module')`, which Node (≥ 20.16), Bun and Deno have.
 * `undefined` where the runtime has no such thing (Cloudflare Workers without `nodejs_compat`, browsers).
 */
export function schemasNow(): typeof Schemas | undefined {
  // The CommonJS build (scripts/build-cjs.mjs) rewrites import.meta.url to the CommonJS file's URL after compiling.
  // biome-ignore lint/suspicious/noTsIgnore: import.meta is an error under module=CommonJS, which does not reach the output
  // @ts-ignore
  const here: string = import.meta.url;
  try {
    const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const module = host.process?.getBuiltinModule?.('node:module') as typeof NodeModule | undefined;
    return module?.createRequire(here)('@a2a/core/schemas') as typeof Schemas | undefined;
  } catch {
    return undefined;
  }
}
