import { defineConfig } from 'vitest/config';

// One root run over every package and app, so `pnpm test` is the whole suite.
// The "@a2a/source" export condition makes workspace packages resolve to their TypeScript sources: no build needed.
// No explicit 'import' condition: it would also apply to require() inside CommonJS dependencies (express 5's router
// then gets is-promise's ESM build and fails with "isPromise is not a function").
export default defineConfig({
  resolve: { conditions: ['@a2a/source', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['@a2a/source', 'module', 'node', 'default'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
