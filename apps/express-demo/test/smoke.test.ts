import type { Server } from 'node:http';
import { defineDemoSmokeTests } from '@a2a/demo-agent/testing';
import { createApp } from '../src/server.js';

defineDemoSmokeTests(async () => {
  const server = await new Promise<Server>((resolve) => {
    const s = createApp({ lineDelayMs: 20 }).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
