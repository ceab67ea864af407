export {
  artifactChunk,
  completed,
  liveEvent,
  message,
  range,
  seqs,
  status,
  submittedTask,
  timestamp,
  uid,
  working,
} from './fixtures.js';
export { LaterStore } from './later-store.js';
export type { PushConfigStoreSuiteOptions, StoreFactoryOptions, TaskStoreSuiteOptions } from './options.js';
export { describePushConfigStore } from './push-config-store-suite.js';
export { describeTaskStore } from './task-store-suite.js';
export { bounded, eventually, Reader } from './wait.js';
