import { closeOnSignal, startBanner } from '@a2a/demo-agent';
import { createTaskStoreFromEnv } from '@a2a/postgres';
import { createTaskStoreFromEnv as redisStoreFromEnv } from '@a2a/redis';
import { createDemoServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3003);
// In memory by default; PostgreSQL when A2A_DATABASE_URL is set, Redis when A2A_REDIS_URL is.
const storage = process.env.A2A_REDIS_URL ? await redisStoreFromEnv() : await createTaskStoreFromEnv();
const stored = 'redis' in storage ? 'Redis' : storage.postgres ? 'PostgreSQL' : 'in-memory store';
const { app, handler } = await createDemoServer({ storage, logger: true });
const url = await app.listen({ host, port });
console.log(startBanner('Fastify', url, stored));
closeOnSignal({ handler, closeServer: () => app.close(), closeStorage: storage.close });
