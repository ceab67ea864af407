// `@a2a/store-testsuite/cluster`: the multi-instance harness and the cases every durable store runs with it.
export {
  eventually,
  type Instance,
  instanceStarter,
  message,
  openStream,
  rest,
  rpc,
} from './cluster-harness.js';
export type { ClusterBackend, ClusterSuiteOptions } from './cluster-suite-options.js';
export { describeMultiInstance } from './multi-instance-suite.js';
export { describeShutdown } from './shutdown-suite.js';
