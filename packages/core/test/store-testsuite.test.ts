import { describePushConfigStore, describeTaskStore } from '@a2a/store-testsuite';
import { InMemoryTaskStore } from '../src/index.js';

// The published store contract, unchanged. No `createPeer`: the in-memory store's state lives in this process, so the
// "second instance on the same backend" is the same object (a second process could not reach it at all).
describeTaskStore('InMemoryTaskStore', {
  create: ({ finishedTaskTtlMs }) => new InMemoryTaskStore({ terminalTtlMs: finishedTaskTtlMs }),
});

describePushConfigStore('InMemoryTaskStore', { create: () => new InMemoryTaskStore() });
