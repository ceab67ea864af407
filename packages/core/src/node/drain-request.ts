import type { IncomingMessage } from 'node:http';

/** How much of an unread body is discarded to keep a keep-alive connection; past it the host may close instead. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * Resolves once the rest of the request body was read and discarded, or once more than `maxBytes` of it arrived,
 * or the client went away. For hosts that close a keep-alive connection when answered before its body ended (Hapi
 * sends `Connection: close`): an early answer (413, 405, 415) keeps the connection for the client's next request.
 */
export function drainRequest(req: IncomingMessage, maxBytes = DRAIN_LIMIT): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      req.off('data', count);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > maxBytes) done();
    };
    req.on('data', count);
    req.once('end', done);
    req.once('close', done);
    req.on('error', done);
    req.resume();
  });
}
