import { listen } from '@a2a/adapter-testsuite';
import { defineDemoSmokeTests } from '@a2a/demo-agent/testing';
import { createDemoServer } from '../src/server.js';

defineDemoSmokeTests(() => listen(createDemoServer({ lineDelayMs: 20 })));
