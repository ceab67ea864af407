import { defineDemoSmokeTests } from '@a2a/demo-agent/testing';
import { createDemoServer } from '../src/server.js';

defineDemoSmokeTests(async () => {
  const { app } = await createDemoServer({ lineDelayMs: 20 });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => app.close() };
});
