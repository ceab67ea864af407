import { createA2AHandler } from '@a2a/core';
import { closeHttpServer, closeOnSignal, demoHandlerOptions, startBanner } from '@a2a/demo-agent';
import { startTelemetryFromEnv } from '@a2a/demo-agent/telemetry';
import { createTaskStoreFromEnv } from '@a2a/postgres';
import { createTaskStoreFromEnv as redisStoreFromEnv } from '@a2a/redis';
import { createDemoServer } from './server.js';

// Traces and metrics when OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER ask for them.
await startTelemetryFromEnv('a2a-koa-demo');
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3001);
// In memory by default; PostgreSQL when A2A_DATABASE_URL is set, Redis when A2A_REDIS_URL is.
const storage = process.env.A2A_REDIS_URL ? await redisStoreFromEnv() : await createTaskStoreFromEnv();
const stored = 'redis' in storage ? 'Redis' : storage.postgres ? 'PostgreSQL' : 'in-memory store';
const handler = createA2AHandler(demoHandlerOptions({ storage }));
const server = createDemoServer({ handler }).listen(port, host, () => {
  const { port: actual } = server.address() as { port: number };
  console.log(startBanner('Koa', `http://${host}:${actual}`, stored));
});
closeOnSignal({ handler, closeServer: () => closeHttpServer(server), closeStorage: storage.close });
