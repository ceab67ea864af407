import { startBanner } from '@a2a/demo-agent';
import { createApp } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
const server = createApp().listen(port, host, () => {
  const { port: actual } = server.address() as { port: number };
  console.log(startBanner('Express', `http://${host}:${actual}`));
});
