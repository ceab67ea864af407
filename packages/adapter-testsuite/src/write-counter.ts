import type { PushConfigStore, TaskStore } from '@a2a/core';

/** The methods through which a client's request writes: agents' own events (non-history appends) are not counted. */
const counted = (method: PropertyKey, args: unknown[]): boolean => {
  if (method === 'append') return (args[2] as { kind?: string } | undefined)?.kind === 'history';
  return method === 'create' || method === 'createWith' || method === 'savePushConfig' || method === 'deletePushConfig';
};

/**
 * Any store seen through a proxy that counts the writes a client's request makes, so the adversarial suite can check
 * that a refused request stored nothing on a durable store as on the in-memory one. Methods run bound to the store
 * itself (private fields), and its optional methods stay present or absent as they are.
 */
export function countClientWrites<S extends TaskStore | PushConfigStore>(store: S, onWrite: () => void): S {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (counted(key, args)) onWrite();
        return value.apply(target, args);
      };
    },
  });
}
