import type { Server } from 'node:http';

/**
 * The accept queue every bench server listens with (capped by the kernel's `net.core.somaxconn`). Node's default of
 * 511 overflows when 2 000 clients connect within a second to a busy 2-core machine: the kernel drops their SYNs and
 * they retry 1 s, 3 s, 7 s later, which the scale bench would count as the server's first-event latency
 * (docs/performance.md, "Scale"). A server expecting connection storms sets it the same way.
 */
export const LISTEN_BACKLOG = 4096;

/** Starts `server` on `host:port` with {@link LISTEN_BACKLOG}. */
export function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
