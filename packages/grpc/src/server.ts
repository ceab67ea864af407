import type { Server as NetServer } from 'node:net';
import type { A2AHttpHandler } from '@a2a/core';
import { PROTOCOL_BINDINGS } from '@a2a/core/schemas';
import { type ConnectionInjector, Server, ServerCredentials, type ServerOptions } from '@grpc/grpc-js';
import { type GuardedListener, guardedListener } from './guarded-listener.js';
import { type A2AGrpcServiceOptions, createA2AGrpcService } from './service.js';

/** grpc-js reads an idle timeout from here on as "never". */
const NEVER_MS = 2 ** 31 - 1;

export interface A2AGrpcServerOptions extends A2AGrpcServiceOptions {
  /**
   * Largest accepted request message; larger ones get RESOURCE_EXHAUSTED before anything is read. Default 4 MiB
   * (the HTTP bindings' `maxBodyBytes` default).
   */
  maxMessageBytes?: number;
  /** TLS (`ServerCredentials.createSsl(...)`); default insecure, for a listener behind a TLS-terminating proxy. */
  credentials?: ServerCredentials;
  /** More @grpc/grpc-js server options (keepalive, concurrency, ...). */
  serverOptions?: ServerOptions;
  /**
   * How long a new connection has to send the HTTP/2 preface (with TLS: to start its handshake) before it is closed.
   * Default 10 s. Connections that connect and send nothing, or part of the preface, would otherwise stay open.
   */
  connectionTimeoutMs?: number;
  /**
   * A connection with no call open for this long is closed (GOAWAY; clients reconnect on their next call), including
   * one that sent the preface and nothing else. Default 5 minutes (`grpc.max_connection_idle_ms` in `serverOptions`
   * is used when this is not set).
   */
  idleTimeoutMs?: number;
  /** Connections open at once, per `listen()`; more are closed as they are accepted. Default 1024. */
  maxConnections?: number;
}

export interface A2AGrpcListenOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /**
   * The `host:port` the agent card lists for the GRPC interface (default: host and bound port), or `false` to keep it
   * out of the card.
   */
  publicAddress?: string | false;
}

export interface A2AGrpcServer {
  /** Binds the HTTP/2 listener and lists it in the handler's card; resolves with the bound port and card address. */
  listen(options?: A2AGrpcListenOptions): Promise<{ port: number; address: string }>;
  /**
   * Takes the interface out of the card, ends open streams with UNAVAILABLE, lets unary calls finish for `timeoutMs`
   * (default 10 s), then closes the rest. Does not close the HTTP handler or its engine.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
  /** The underlying @grpc/grpc-js server (e.g. to add health or reflection services before `listen`). */
  readonly server: Server;
}

/** The A2A gRPC binding on its own HTTP/2 listener, serving the same engine as `http` (one `createA2AHandler`). */
export function createA2AGrpcServer(http: A2AHttpHandler, options: A2AGrpcServerOptions = {}): A2AGrpcServer {
  const maxMessageBytes = options.maxMessageBytes ?? 4 * 1024 * 1024;
  const idleTimeoutMs = options.idleTimeoutMs ?? options.serverOptions?.['grpc.max_connection_idle_ms'] ?? 300_000;
  const server = new Server({
    ...options.serverOptions,
    'grpc.max_receive_message_length': maxMessageBytes,
    'grpc.max_connection_idle_ms': Math.min(idleTimeoutMs, NEVER_MS),
  });
  const service = createA2AGrpcService(http, options);
  server.addService(service.definition, service.implementation);
  const credentials = options.credentials ?? ServerCredentials.createInsecure();
  const guard = {
    connectionTimeoutMs: options.connectionTimeoutMs ?? 10_000,
    maxConnections: options.maxConnections ?? 1024,
    secure: credentials._isSecure(),
  };
  // Connections come from our own TCP listeners (see guarded-listener.ts), not from grpc-js's bindAsync.
  let injector: ConnectionInjector | undefined;
  const listeners: GuardedListener[] = [];
  let unlist: (() => void) | undefined;

  return {
    server,
    async listen({ port = 0, host = '127.0.0.1', publicAddress } = {}) {
      injector ??= server.createConnectionInjector(credentials);
      const listener = guardedListener(injector, guard);
      const bound = await listenOn(listener.server, port, host);
      // e.g. EMFILE at accept: reported, never thrown (an 'error' without a listener would end the process)
      listener.server.on('error', (error) => (options.onError ?? console.error)(error));
      listeners.push(listener);
      const address = publicAddress || (host.includes(':') ? `[${host}]:${bound}` : `${host}:${bound}`);
      if (publicAddress !== false) {
        unlist?.();
        unlist = http.addInterface({ url: address, protocolBinding: PROTOCOL_BINDINGS.grpc, protocolVersion: '1.0' });
      }
      return { port: bound, address };
    },
    async close({ timeoutMs = 10_000 } = {}) {
      unlist?.();
      unlist = undefined;
      service.endStreams();
      for (const listener of listeners.splice(0)) {
        listener.server.close();
        listener.destroyPending();
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

function listenOn(server: NetServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}
