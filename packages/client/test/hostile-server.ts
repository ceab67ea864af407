import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';

/** What the server answers a request (its body already read). */
export type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A real HTTP server on 127.0.0.1 whose answers a test scripts, counting what it saw. */
export interface HostileServer {
  url: string;
  /** Requests received, in order (`METHOD path`). */
  requests: string[];
  /** Headers of the last request. */
  lastHeaders: IncomingMessage['headers'] | undefined;
  /** Responses the client hung up on before they ended. */
  hungUp: number;
  answer: Answer;
  close(): Promise<void>;
}

export async function hostileServer(answer: Answer = (_req, res) => res.writeHead(500).end()): Promise<HostileServer> {
  const state: HostileServer = {
    url: '',
    requests: [],
    lastHeaders: undefined,
    hungUp: 0,
    answer,
    close: async () => {},
  };
  const http = createServer((req, res) => {
    state.requests.push(`${req.method} ${req.url}`);
    state.lastHeaders = req.headers;
    res.on('close', () => {
      if (!res.writableFinished) state.hungUp++;
    });
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => state.answer(req, res, body));
  });
  const running = await listen(http); // its close drops the sockets that silent answers hold open
  state.url = running.url;
  state.close = running.close;
  return state;
}

/** Where an "endless" body ends after all, so that a client without limits fails a test instead of the machine. */
export const ENDLESS_CAP = 32 * 1024 * 1024;

/**
 * Writes `chunk` again and again, as fast as the client reads, until the client hangs up: a body that never ends,
 * whose writing stops with the connection (or, for a client that never hangs up, after {@link ENDLESS_CAP} bytes).
 */
export function endless(res: ServerResponse, chunk: string, first = ''): void {
  res.write(first);
  let written = first.length;
  const pump = () => {
    while (!res.destroyed && written < ENDLESS_CAP) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  res.on('error', () => {}); // the client hanging up mid-write
  pump();
}
