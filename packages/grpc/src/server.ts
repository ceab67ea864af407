import type { A2AHttpHandler } from '@a2a/core';
import { PROTOCOL_BINDINGS } from '@a2a/core/schemas';
import { Server, ServerCredentials, type ServerOptions } from '@grpc/grpc-js';
import { type A2AGrpcServiceOptions, createA2AGrpcService } from './service.js';

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
  const server = new Server({ ...options.serverOptions, 'grpc.max_receive_message_length': maxMessageBytes });
  const service = createA2AGrpcService(http, options);
  server.addService(service.definition, service.implementation);
  let unlist: (() => void) | undefined;

  return {
    server,
    async listen({ port = 0, host = '127.0.0.1', publicAddress } = {}) {
      const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      const bound = await new Promise<number>((resolve, reject) => {
        server.bindAsync(target, options.credentials ?? ServerCredentials.createInsecure(), (error, p) =>
          error ? reject(error) : resolve(p),
        );
      });
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
