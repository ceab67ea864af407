import { startBanner } from '@a2a/demo-agent';
import { createTaskStoreFromEnv } from '@a2a/postgres';
import { createDemoServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3002);
// In memory by default; PostgreSQL when A2A_DATABASE_URL is set.
const storage = await createTaskStoreFromEnv();
const server = await createDemoServer({ host, port, storage });
await server.start();
console.log(
  startBanner('Hapi', `http://${host}:${server.info.port}`, storage.postgres ? 'PostgreSQL' : 'in-memory store'),
);
process.once('SIGTERM', () => void server.stop().then(() => storage.close()));
