import { createServer, type Server, type Socket } from 'node:net';
import type { ConnectionInjector } from '@grpc/grpc-js';

/** What a cleartext HTTP/2 client sends first (RFC 9113 §3.4). */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
/** A TLS record header; its first byte is 22 for a handshake (the ClientHello). */
const TLS_RECORD_HEADER = 5;
const TLS_HANDSHAKE = 0x16;

export interface ConnectionGuard {
  /** How long a new connection has to send the HTTP/2 preface (TLS: its first record) before it is closed. */
  connectionTimeoutMs: number;
  /** Connections open at once (handed over or not); more are closed as they arrive. */
  maxConnections: number;
  /** TLS credentials: the injector does the handshake, so only the record header can be checked here. */
  secure: boolean;
}

export interface GuardedListener {
  server: Server;
  /** Closes the connections that never got past the preface (grpc-js closes the ones it was handed). */
  destroyPending(): void;
}

/**
 * A TCP listener in front of @grpc/grpc-js: a connection is handed to the gRPC server (`createConnectionInjector`)
 * only once it has sent the HTTP/2 preface, within a deadline. grpc-js's own listener keeps a connection that sends
 * nothing, or half a preface, open forever, each one a descriptor of the process that also serves HTTP.
 */
export function guardedListener(injector: ConnectionInjector, guard: ConnectionGuard): GuardedListener {
  const pending = new Set<Socket>();
  const need = guard.secure ? TLS_RECORD_HEADER : PREFACE.length;
  const server = createServer((socket) => {
    pending.add(socket);
    const ignore = () => {}; // a reset before the handover: the close below cleans up
    socket.on('error', ignore);
    const timer = Number.isFinite(guard.connectionTimeoutMs)
      ? setTimeout(() => socket.destroy(), guard.connectionTimeoutMs)
      : undefined;
    timer?.unref();
    const done = () => {
      clearTimeout(timer);
      pending.delete(socket);
      socket.off('readable', onReadable);
      socket.off('end', onEnd);
      socket.off('close', done);
    };
    const onEnd = () => socket.destroy(); // ended before the preface
    const onReadable = () => {
      const head = socket.read(need) as Buffer | null;
      if (head === null) return; // not all of it yet
      done();
      const speaksGrpc = guard.secure ? head[0] === TLS_HANDSHAKE : head.equals(PREFACE);
      if (!speaksGrpc || head.length < need) {
        socket.destroy();
        return;
      }
      socket.unshift(head); // the HTTP/2 (or TLS) layer reads what the socket already buffered
      injector.injectConnection(socket);
    };
    socket.on('readable', onReadable);
    socket.on('end', onEnd);
    socket.on('close', done);
  });
  // Node closes connections past this at accept, before any JavaScript runs for them.
  server.maxConnections = guard.maxConnections;
  return {
    server,
    destroyPending() {
      for (const socket of pending) socket.destroy();
    },
  };
}
