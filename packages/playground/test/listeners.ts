import { once } from 'node:events';
import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { listen } from '@a2a/adapter-testsuite';

export interface Sink {
  url: string;
  port: number;
  /** Connections accepted so far: a guarded target must see none. */
  connections: number;
  /** Everything received, for the failure message. */
  received: string;
  close(): Promise<void>;
}

/**
 * A raw TCP listener on 127.0.0.1 (a mail server, a database, a metadata service…) that records every connection; on
 * `port`, or any free one.
 */
export async function startSink(host = '127.0.0.1', port = 0): Promise<Sink> {
  const sockets = new Set<Socket>();
  const sink = { connections: 0, received: '' } as Sink;
  const server = createServer((socket) => {
    sink.connections++;
    sockets.add(socket);
    socket.on('data', (d) => {
      sink.received += d.toString('latin1').slice(0, 2000);
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as { port: number }).port;
  return Object.assign(sink, {
    port: bound,
    url: `http://${host}:${bound}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface HttpListener {
  url: string;
  /** Requests received so far. */
  requests: number;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 (or `host`) with one handler; its open responses are cut on close. */
export async function startHttp(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<HttpListener> {
  const listener = { requests: 0 } as HttpListener;
  const { url, close } = await listen(
    (req, res) => {
      listener.requests++;
      handler(req, res);
    },
    { host },
  );
  return Object.assign(listener, { url, close });
}

/** A remote that reads the request and never answers. */
export function startSilent(): Promise<HttpListener> {
  return startHttp((req) => void req.resume());
}

/** A remote that answers 200 at once, then trickles one byte every `everyMs` and never ends. */
export function startTrickle(everyMs = 20): Promise<HttpListener> {
  return startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), everyMs);
    res.on('close', () => clearInterval(timer));
  });
}

/** A remote that streams bytes as fast as it may, without end (and without a length). */
export function startFirehose(): Promise<HttpListener> {
  return startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) {}
      if (!res.destroyed) res.once('drain', pump);
    };
    res.write('[');
    pump();
  });
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request with headers fetch will not send (`Host`, `Origin`, `Sec-Fetch-Site`), as a browser on a
 * rebinding or cross-site page would send them.
 */
export function rawRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; signal?: AbortSignal } = {},
): Promise<RawAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
