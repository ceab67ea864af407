import { createServer, type IncomingMessage } from 'node:http';

/** A webhook receiver on 127.0.0.1 for push tests: records every POST (headers and JSON body). */
export interface PushReceiver {
  url: string;
  received: { path: string; headers: IncomingMessage['headers']; body: unknown }[];
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: PushReceiver['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      received.push({ path: req.url ?? '/', headers: req.headers, body });
      res.writeHead(req.method === 'POST' ? 200 : 405).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
