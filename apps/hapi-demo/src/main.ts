import { startBanner } from '@a2a/demo-agent';
import { createDemoServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3002);
const server = await createDemoServer({ host, port });
await server.start();
console.log(startBanner('Hapi', `http://${host}:${server.info.port}`));
