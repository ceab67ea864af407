import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on 127.0.0.1: its origin and how to stop it. */
export interface Listening {
  /** The origin, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  url: string;
  server: Server;
  /** Drops open connections (streams included) and stops the server. */
  close(): Promise<void>;
}

export interface ListenOptions {
  /** The port to listen on; default 0 (any free one). Ignored for a server that already listens. */
  port?: number | undefined;
  /** The address to listen on; default `127.0.0.1`. Ignored for a server that already listens. */
  host?: string | undefined;
  /**
   * Stops a framework that owns the server (`() => app.close()` for Fastify or NestJS, `() => server.stop()` for
   * Hapi): `close()` drops the open connections and then calls it instead of `server.close()`.
   */
  stop?: () => Promise<unknown>;
}

/**
 * Listens (on 127.0.0.1, port 0, unless told) and gives the origin and a `close()` that drops open connections first.
 * Takes a request listener (an Express app, a Koa app's `callback()`: served by a new `node:http` server) or a
 * server: one not listening yet is started; one whose framework already listens (Fastify's `app.server`, Hapi's
 * `server.listener` after `start()`) is taken as it is.
 */
export async function listen(target: Server | RequestListener, options: ListenOptions = {}): Promise<Listening> {
  const server = typeof target === 'function' ? createServer(target) : target;
  if (!server.listening) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  }
  const { stop } = options;
  return {
    url: originOf(server),
    server,
    close: async () => {
      server.closeAllConnections();
      if (stop) await stop();
      else await closeServer(server);
    },
  };
}

/** The origin of a listening server, e.g. `http://127.0.0.1:54321` (`http://[::1]:54321` on IPv6). */
export function originOf(server: Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  return family === 'IPv6' ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

/** Drops a server's open connections and waits until it is closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
