/**
 * The native class behind a Fetch global (`Response`, `Request`, `Headers`), even when a host has put a subclass of
 * it in its place (`@hono/node-server` does at `serve()`): the root of the global's class chain. For the classes
 * that core builds on the Fetch globals at their first use instead of at start-up, so that they build on what they
 * would have found at start-up (docs/performance.md, "Footprint").
 */
export function nativeClass<T extends object>(global: T): T {
  let native: object = global;
  while (Object.getPrototypeOf(native) !== Function.prototype) native = Object.getPrototypeOf(native);
  return native as T;
}
