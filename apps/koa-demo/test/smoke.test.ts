import { defineDemoSmokeTests } from '@a2a/demo-agent/testing';
import { createDemoServer } from '../src/server.js';

defineDemoSmokeTests(async () => {
  const server = createDemoServer({ lineDelayMs: 20 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
