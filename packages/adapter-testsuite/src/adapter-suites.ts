import { type AdversarialOptions, defineAdversarialSuite } from './adversarial.js';
import type { AdapterHarness } from './harness.js';
import { defineAdapterConformanceSuite } from './suite.js';

/** What `defineAdapterSuites` passes on to the suites it runs. */
export interface AdapterSuitesOptions {
  /** The adversarial suite's run count and seed (`A2A_ADVERSARIAL_RUNS` / `A2A_ADVERSARIAL_SEED` still override). */
  adversarial?: AdversarialOptions;
}

/**
 * Every suite an adapter runs, for one harness: the conformance suite (`defineAdapterConformanceSuite`) then the
 * generated adversarial suite (`defineAdversarialSuite`), with the same names and cases as when called one by one.
 */
export function defineAdapterSuites(harness: AdapterHarness, options: AdapterSuitesOptions = {}): void {
  defineAdapterConformanceSuite(harness);
  defineAdversarialSuite(harness, options.adversarial);
}
