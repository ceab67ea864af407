import { defineAdapterSuites, type HarnessStartOptions } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import { type Platform, startNest, suiteModule } from './harness.js';

for (const platform of ['express', 'fastify'] as Platform[]) {
  const harness = {
    name: `NestJS (${platform})`,
    streamsInOneWrite: true,
    start: (a2a: A2AHttpHandler, o: HarnessStartOptions) => startNest(platform, o, suiteModule(a2a, o.mountPath)),
  };
  defineAdapterSuites(harness);
}
