// @a2a/hono/node-server, Node only: `@hono/node-server` answers a request it cannot make a URL of (a Host such as
// `[::1`, `OPTIONS *`) with an empty 400 before the app runs; this entry turns such a request into a Fetch `Request`
// through core's Node bridge (`@a2a/core/node`: `toWebRequest`) carrying the refusal from `@a2a/core/adapter`
// (`requestRefusal`), and hands it to the app, where @a2a/hono answers it the A2A way. Tests: packages/hono/test/
// (`conformance.test.ts` serves through it: the adversarial suite's Host and target cases); `npx vitest run packages/hono`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { requestRefusal } from '@a2a/core/adapter';
import { toWebRequest } from '@a2a/core/node';
import { getRequestListener, RequestError, type serve } from '@hono/node-server';

/** The `serve()` options of `@hono/node-server` this module reads (HTTP/1.1 servers). */
export type A2AServeOptions = Parameters<typeof serve>[0] & {
  createServer?: typeof createServer;
  /** Called with every other error of the request listener (the app's own), as `getRequestListener`'s option. */
  errorHandler?: CustomErrorHandler;
};
type CustomErrorHandler = NonNullable<NonNullable<Parameters<typeof getRequestListener>[1]>['errorHandler']>;

/**
 * `serve(withA2ARequestErrors({ fetch: app.fetch, port }))`: `@hono/node-server` refuses a request whose Host header
 * or target it cannot turn into a URL (`Host: [::1`, `OPTIONS *`) with an empty 400 before the app runs. With this,
 * such a request reaches the app with a stand-in host and a refusal that `@a2a/hono` answers the A2A way on its routes
 * (a JSON-RPC error or a google.rpc.Status 400, as every other adapter does); other routes run as usual.
 */
export function withA2ARequestErrors<O extends A2AServeOptions>(options: O): O {
  // The request being handed to node-server's listener. Its `errorHandler` is called synchronously inside that call
  // when the request cannot be read (before the listener's first await), so a slot set around the call finds it; an
  // AsyncLocalStorage would do the same at the price of async context tracking on every request.
  let current: { req: IncomingMessage; res: ServerResponse } | undefined;
  const { fetch } = options;
  const errorHandler: CustomErrorHandler = async (error) => {
    const store = current;
    if (!store || !(error instanceof RequestError))
      return options.errorHandler ? options.errorHandler(error) : undefined;
    const { req, res } = store;
    const path = req.url?.startsWith('/') ? req.url : '/';
    const refusal = requestRefusal(/host/i.test(error.message) ? 'host' : 'target');
    const request = toWebRequest(req, res, { url: `http://invalid.invalid${path}`, refusal });
    try {
      return (await fetch(request, { incoming: req, outgoing: res })) as Response; // Hono's fetch answers a Response
    } catch {
      return new Response(null, { status: 400 }); // what the server answers without this
    }
  };
  // serve() does not pass an error handler on: the same listener it builds, with one.
  const { hostname, overrideGlobalObjects, autoCleanupIncoming } = options;
  const listener = getRequestListener(fetch, {
    errorHandler,
    ...(hostname !== undefined && { hostname }),
    ...(overrideGlobalObjects !== undefined && { overrideGlobalObjects }),
    ...(autoCleanupIncoming !== undefined && { autoCleanupIncoming }),
  });
  const create = options.createServer ?? createServer;
  const createWithHandler = ((serverOptions: object) =>
    create(serverOptions, (req, res) => {
      current = { req, res };
      try {
        return listener(req, res);
      } finally {
        current = undefined;
      }
    })) as typeof createServer;
  return { ...options, createServer: createWithHandler };
}
