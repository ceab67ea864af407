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
