import { createServer, type Server } from 'node:http';
import { createNodeHandler } from '@a2a/core/node';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { listen } from './listen.js';

/**
 * Plain `node:http` with `@a2a/core/node`'s request listener, no framework: the library's own cost per request and
 * per stream, the floor under every adapter's row.
 */
export function startNode(port: number, host: string, options: BenchOptions): Promise<Server> {
  const a2a = createNodeHandler(createBenchA2A(options));
  const server = createServer((req, res) => {
    const path = req.url?.split('?', 1)[0];
    if (path === RAW_PATH && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          res.statusCode = 400; // as a framework's JSON parser answers, instead of a thrown listener ending the process
          res.end();
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(rawEcho(body)));
      });
      return;
    }
    if (path === MEM_PATH && req.method === 'GET') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(memFigures(req.url?.endsWith('gc=1') ?? false)));
      return;
    }
    void a2a(req, res);
  });
  return listen(server, port, host);
}
