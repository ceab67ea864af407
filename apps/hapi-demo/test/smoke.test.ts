import { defineDemoSmokeTests } from '@a2a/demo-agent/testing';
import { createDemoServer } from '../src/server.js';

defineDemoSmokeTests(async () => {
  const server = await createDemoServer({ lineDelayMs: 20 });
  await server.start();
  return { url: `http://127.0.0.1:${server.info.port}`, close: () => server.stop() };
});
