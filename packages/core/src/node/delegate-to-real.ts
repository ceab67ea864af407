/**
 * Makes a lazy view pass for the Web class it stands for: the view's prototype inherits from the class's (so
 * `instanceof` holds), and every member of the class the view does not implement itself (`own`) is forwarded to the
 * real instance the view builds on first use (`real()`). Getters and methods alike; other values are left alone.
 * This is what lets the cheap views stay correct for code that uses the rest of the class
 * (docs/performance.md, "Hot-path tricks").
 */
export function delegateToReal<V extends { real(): object }>(
  view: { prototype: V },
  web: { prototype: object },
  own: ReadonlySet<PropertyKey>,
  keys: readonly PropertyKey[] = Reflect.ownKeys(web.prototype),
): void {
  Object.setPrototypeOf(view.prototype, web.prototype);
  for (const key of keys) {
    if (own.has(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(web.prototype, key) as PropertyDescriptor;
    const getter = descriptor.get;
    const method = descriptor.value;
    if (getter) {
      Object.defineProperty(view.prototype, key, {
        configurable: true,
        get(this: V) {
          return getter.call(this.real());
        },
      });
    } else if (typeof method === 'function') {
      Object.defineProperty(view.prototype, key, {
        configurable: true,
        writable: true,
        value(this: V, ...args: unknown[]) {
          return method.apply(this.real(), args);
        },
      });
    }
  }
}
