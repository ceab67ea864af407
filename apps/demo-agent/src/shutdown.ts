import type { Server } from 'node:http';
import type { A2AHttpHandler } from '@a2a/core';

export interface ShutdownSteps {
  /** The A2A handler: refuses new work, ends streams, lets running tasks finish (up to `timeoutMs`). */
  handler: A2AHttpHandler;
  /** Stops the HTTP server once the handler is closed. */
  closeServer: () => Promise<void>;
  /** Releases the storage (`createTaskStoreFromEnv().close`). */
  closeStorage: () => Promise<void>;
  /** Grace period for running tasks. Default `A2A_SHUTDOWN_TIMEOUT_MS` or 25 s. */
  timeoutMs?: number;
}

/**
 * SIGTERM/SIGINT: close the A2A handler first (new requests get 503, open SSE streams end so clients resubscribe
 * on another instance, running tasks get the grace period, leases are released), then the server, then the storage.
 */
export function closeOnSignal(steps: ShutdownSteps): void {
  const timeoutMs = steps.timeoutMs ?? Number(process.env.A2A_SHUTDOWN_TIMEOUT_MS ?? 25_000);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void steps.handler
      .close({ timeoutMs })
      .then(steps.closeServer)
      .then(steps.closeStorage)
      .then(
        () => process.exit(0),
        (error) => {
          console.error('[a2a] shutdown failed:', error);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** `server.close()` for node:http servers: idle keep-alive connections are closed, busy ones get 1 s more. */
export function closeHttpServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 1000).unref();
  });
}
