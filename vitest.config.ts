import { defineConfig } from 'vitest/config';

// One root run over every package and app, so `pnpm test` is the whole suite.
// The "@a2a/source" export condition makes workspace packages resolve to their TypeScript sources: no build needed.
// No explicit 'import' condition: it would also apply to require() inside CommonJS dependencies (express 5's router
// then gets is-promise's ESM build and fails with "isPromise is not a function").
const valkeyUrl = process.env.A2A_TEST_VALKEY_URL;
const include = [
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'apps/*/test/**/*.test.ts',
  'apps/*/src/**/*.test.ts',
  'test/**/*.test.ts',
];

export default defineConfig({
  resolve: { conditions: ['@a2a/source', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['@a2a/source', 'module', 'node', 'default'] } },
  test: {
    ...(valkeyUrl ? {} : { include }),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // With a Valkey server (`.ci/run` starts one: A2A_TEST_VALKEY_URL, A2A_VALKEY_SERVER), @a2a/redis's whole suite
    // runs a second time on it, fault tests included (they start valkey-server processes of their own), and its
    // Cluster tests on a Valkey cluster (A2A_TEST_VALKEY_CLUSTER_URL) instead of the Redis one.
    ...(valkeyUrl && {
      projects: [
        // A project's include is added to the root's (arrays merge), so the root has none when there are projects.
        { extends: true, test: { name: 'all', include } },
        {
          extends: true,
          test: {
            name: 'valkey',
            include: ['packages/redis/test/**/*.test.ts'],
            env: {
              A2A_TEST_REDIS_URL: valkeyUrl,
              A2A_TEST_REDIS_ENGINE: 'valkey',
              A2A_REDIS_SERVER: process.env.A2A_VALKEY_SERVER ?? 'valkey-server',
              // The Cluster tests on a Valkey cluster (`.ci/run` starts one); without one they are skipped (loudly).
              A2A_TEST_REDIS_CLUSTER_URL: process.env.A2A_TEST_VALKEY_CLUSTER_URL ?? '',
              // The failover tests demote the replica cluster's masters: never two projects on one cluster at once.
              A2A_TEST_REDIS_REPLICA_CLUSTER_URL: process.env.A2A_TEST_VALKEY_REPLICA_CLUSTER_URL ?? '',
            },
          },
        },
      ],
    }),
  },
});
