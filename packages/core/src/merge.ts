/**
 * `{ ...base, ...extra }` for hot paths. On Node 20 (V8 11.3) an object made by a spread gets a map without
 * transitions, so every key added after the spread builds a new map: `{ ...message, taskId, contextId }` costs
 * ~2.5 µs there, this ~0.2 µs (Node 22+ is fast either way). Same key order and precedence as the spread.
 */
export function merge<A extends object, B extends object>(base: A, extra: B): A & B {
  return Object.assign({}, base, extra);
}
