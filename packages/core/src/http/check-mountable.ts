import type { MountableHandler } from './mountable-handler.js';

/**
 * Adapters call this at setup, so a missing or wrong handler fails there with what to pass instead of answering
 * every request with a 500 later.
 */
export function checkMountable(handler: unknown, where: string): asserts handler is MountableHandler {
  if (handler && typeof (handler as Partial<MountableHandler>).handle === 'function') return;
  const got =
    handler === undefined || handler === null
      ? String(handler)
      : typeof handler === 'object'
        ? `an object without a handle() method${hint(handler, where)}`
        : `a ${typeof handler}`;
  throw new TypeError(
    `${where} needs the handler that createA2AHandler({ agentCard, executor }) returns (or another handler with ` +
      `handle(request), such as receiver.handler of @a2a/webhook-receiver); got ${got}`,
  );
}

/**
 * The setup error for a handler with a `basePath` mounted under a framework prefix: `basePath` alone places its routes
 * (and the card at the origin root), so the prefix cannot apply. `fix` says how to mount it at the root in that
 * framework's words.
 */
export function basePathUnderPrefix(where: string, basePath: string, fix: string): Error {
  return new Error(
    `${where}: the handler has basePath '${basePath}', which places its routes: ${fix}, or create the handler ` +
      'without basePath for a prefix-only mount',
  );
}

/** What the wrong object most likely is, and the fix. */
function hint(handler: object, where: string): string {
  if ('executor' in handler || 'agentCard' in handler)
    return ' (these look like the options of createA2AHandler: pass createA2AHandler(options))';
  // `app.use(a2aExpress)`: the framework called the adapter itself with its request (Node's, Koa's or Hono's context).
  const name = where.split(/[:\s]/, 1)[0];
  if (('method' in handler && 'headers' in handler) || ('req' in handler && 'res' in handler))
    return ` but a request: ${name} was given to the framework uncalled; mount what it returns, e.g. app.use(${name}(handler))`;
  return '';
}

/**
 * The setup mistake `app.use(a2a.fetch)` (or `a2a.handle`): the framework calls it with its own request (Node's,
 * Koa's or Hono's context), which has no Fetch `Headers`, instead of a Fetch `Request`. Thrown synchronously, so the
 * framework's error handler shows it (an async rejection would be unhandled on Express 4), instead of every route of
 * the app answering 500 with `TypeError: Invalid URL`.
 */
export function checkFetchRequest(request: unknown, method: 'fetch' | 'handle'): void {
  if (typeof (request as { headers?: { get?: unknown } } | null)?.headers?.get === 'function') return;
  const object = typeof request === 'object' && request !== null;
  const given =
    object && 'httpVersion' in request
      ? "Node's request"
      : object && 'req' in request
        ? "a framework's context (Koa's or Hono's)"
        : String(request === null || typeof request !== 'object' ? request : 'an object without Fetch headers');
  throw new TypeError(
    `a2a.${method}() takes a Fetch Request and was given ${given}` +
      ' (was it mounted as framework middleware, e.g. app.use(a2a.fetch)?). Mount the handler with its adapter ' +
      'instead: app.use(a2aExpress(a2a)) from @a2a/express, app.use(a2aKoa(a2a)) from @a2a/koa, ' +
      "app.route('/', a2aHono(a2a)) from @a2a/hono, or createNodeHandler(a2a) from @a2a/core/node for node:http",
  );
}
