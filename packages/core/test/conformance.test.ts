import { defineAdapterSuites, nodeHarness } from '@a2a/adapter-testsuite';

// The reference: core's own Node bridge on plain node:http (the harness lives in the suite, where the store packages
// serve their stores through it too).
defineAdapterSuites(nodeHarness());
