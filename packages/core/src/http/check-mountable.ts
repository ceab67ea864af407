import type { MountableHandler } from './create-handler.js';

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
        ? `an object without a handle() method${'executor' in handler || 'agentCard' in handler ? ' (these look like the options of createA2AHandler: pass createA2AHandler(options))' : ''}`
        : `a ${typeof handler}`;
  throw new TypeError(
    `${where} needs the handler that createA2AHandler({ agentCard, executor }) returns (or another handler with ` +
      `handle(request), such as receiver.handler of @a2a/webhook-receiver); got ${got}`,
  );
}
