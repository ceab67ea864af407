import type { CallContext } from './agent-executor.js';

/**
 * A call whose `signal` is made on first read: the Node bridge's disconnect signal costs an AbortController and a
 * socket listener, and a blocking SendMessage never reads it.
 */
export function lazySignalCall(call: Omit<CallContext, 'signal'>, signal: () => AbortSignal): CallContext {
  let made: AbortSignal | undefined;
  return Object.defineProperty(call, 'signal', {
    enumerable: true,
    configurable: true,
    get: () => {
      made ??= signal();
      return made;
    },
  });
}

/** The call with some fields replaced; a lazy `signal` stays lazy (a spread would make it). */
export function extendCall(call: CallContext, patch: Partial<CallContext>): CallContext {
  return Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(call), ...Object.getOwnPropertyDescriptors(patch) },
  ) as CallContext;
}
