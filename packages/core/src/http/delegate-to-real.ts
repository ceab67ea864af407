/**
 * Makes a lazy view pass for the Web class it stands for (`Request`, `Headers`, `Response`): the view's prototype
 * inherits from the class's (so `instanceof` holds), and every member of the class the view does not implement
 * itself (on its prototype, or as the instance fields named in `own`) is forwarded to the real instance the view
 * builds on first use (`real()`). Getters and methods alike; other values are left alone. This is what lets the cheap
 * views stay correct for code that uses the rest of the class (docs/performance.md, "Hot-path tricks").
 *
 * Trick, "Fetch classes named on demand" (docs/performance.md, "Hot-path tricks"): naming a Fetch global makes Node 20
 * load undici (~16 ms CPU), which a plain JSON request never needs. So until someone reaches past the view's own
 * members, the view's prototype inherits from a stand-in (a Proxy) instead of the class's prototype: the first
 * `instanceof` that walks up to it (its `getPrototypeOf`), or the first lookup of a member the view lacks (`get`,
 * `has`, `set`), names the class, puts its prototype in the stand-in's place, installs the forwarders, and answers as
 * the real chain would. After that the stand-in is out of the chain.
 */
export function delegateToReal<V extends { real(): object }>(
  view: { prototype: V },
  web: () => { prototype: object },
  own: ReadonlySet<PropertyKey>,
  keys: (prototype: object) => readonly PropertyKey[] = Reflect.ownKeys,
): void {
  let native: object | undefined;
  const resolve = (): object => {
    if (native) return native;
    native = web().prototype;
    Object.setPrototypeOf(view.prototype, native);
    forward(view, native, own, keys(native));
    return native;
  };
  const standIn = new Proxy(Object.create(null) as object, {
    getPrototypeOf: () => resolve(),
    get(_, key, receiver) {
      resolve();
      return Reflect.get(view.prototype, key, receiver);
    },
    has(_, key) {
      resolve();
      return Reflect.has(view.prototype, key);
    },
    set(_, key, value, receiver) {
      resolve();
      return Reflect.set(view.prototype, key, value, receiver);
    },
  });
  // Resolving a promise with a view asks it for `then` (every async function that returns a response does, ~6 times
  // a request), which no Fetch class has: answered before the stand-in, without naming the class or calling a trap
  // (~150 ns each). Until the class is named, `'then' in view` is true.
  // biome-ignore lint/suspicious/noThenProperty: an undefined `then`, so that a view is not a thenable
  const noThen = Object.create(standIn, { then: { value: undefined, writable: true, configurable: true } });
  Object.setPrototypeOf(view.prototype, noThen);
}

function forward<V extends { real(): object }>(
  view: { prototype: V },
  native: object,
  own: ReadonlySet<PropertyKey>,
  keys: readonly PropertyKey[],
): void {
  for (const key of keys) {
    if (own.has(key) || Object.hasOwn(view.prototype, key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(native, key) as PropertyDescriptor;
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
