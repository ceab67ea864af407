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
