import { listen } from '@a2a/adapter-testsuite';
import { defineDemoSmokeTests } from '@a2a/demo-agent/testing';
import { createApp } from '../src/server.js';

defineDemoSmokeTests(() => listen(createApp({ lineDelayMs: 20 })));
