import { createServer, type Server } from 'node:http';
import { a2aExpress } from '@a2a/express';
import express from 'express';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { listen } from './listen.js';

/** Express 5 with the raw JSON route and @a2a/express mounted the way a user would. */
export function startExpress(port: number, host: string, options: BenchOptions): Promise<Server> {
  const app = express();
  app.disable('x-powered-by');
  app.post(RAW_PATH, express.json(), (req, res) => {
    res.json(rawEcho(req.body));
  });
  app.get(MEM_PATH, (req, res) => {
    res.json(memFigures(req.query.gc === '1'));
  });
  app.use(a2aExpress(createBenchA2A(options)));
  return listen(createServer(app), port, host);
}
