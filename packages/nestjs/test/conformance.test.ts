import {
  defineAdapterConformanceSuite,
  defineAdversarialSuite,
  type HarnessStartOptions,
} from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import { type Platform, startNest } from './harness.js';

for (const platform of ['express', 'fastify'] as Platform[]) {
  const harness = {
    name: `NestJS (${platform})`,
    start: (a2a: A2AHttpHandler, o: HarnessStartOptions) => startNest(platform, a2a, o),
  };
  defineAdapterConformanceSuite(harness);
  defineAdversarialSuite(harness);
}
