import { startBanner } from '@a2a/demo-agent';
import { createDemoServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3001);
const server = createDemoServer().listen(port, host, () => {
  const { port: actual } = server.address() as { port: number };
  console.log(startBanner('Koa', `http://${host}:${actual}`));
});
