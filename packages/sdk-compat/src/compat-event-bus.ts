/**
 * The `ExecutionEventBus` an SDK executor publishes on (the same surface in `@a2a-js/sdk` 1.x and 0.3.x:
 * `publish`, `finished`, `on`/`off`/`once` for 'event' and 'finished', `removeAllListeners`). Each published event is
 * handed to `sink` synchronously, in publish order, then to the executor's own listeners.
 */
export class CompatEventBus<E> {
  // Made on first use: most executors never listen on their bus, and a Set or Map per execution is measurable.
  private listeners: { event: Set<(event: E) => void>; finished: Set<() => void> } | undefined;
  private onceWrappers: Map<(...args: never[]) => void, (...args: never[]) => void> | undefined;
  private done = false;

  constructor(private readonly sink: (event: E) => void) {}

  /** `finished()` was called. */
  get isFinished(): boolean {
    return this.done;
  }

  publish(event: E): void {
    this.sink(event);
    if (this.listeners?.event.size) for (const listener of [...this.listeners.event]) listener(event);
  }

  finished(): void {
    if (this.done) return;
    this.done = true;
    if (this.listeners?.finished.size) for (const listener of [...this.listeners.finished]) listener();
  }

  on(eventName: 'event', listener: (event: E) => void): this;
  on(eventName: 'finished', listener: () => void): this;
  on(eventName: 'event' | 'finished', listener: (event: E) => void): this {
    this.set(eventName).add(listener);
    return this;
  }

  off(eventName: 'event', listener: (event: E) => void): this;
  off(eventName: 'finished', listener: () => void): this;
  off(eventName: 'event' | 'finished', listener: (event: E) => void): this {
    const set = this.set(eventName);
    set.delete(listener);
    const wrapper = this.onceWrappers?.get(listener);
    if (wrapper) set.delete(wrapper as (event: E) => void);
    return this;
  }

  once(eventName: 'event', listener: (event: E) => void): this;
  once(eventName: 'finished', listener: () => void): this;
  once(eventName: 'event' | 'finished', listener: (event: E) => void): this {
    const wrapper = (event: E) => {
      this.off(eventName as 'event', listener);
      listener(event);
    };
    this.set(eventName).add(wrapper);
    this.onceWrappers ??= new Map();
    this.onceWrappers.set(listener, wrapper);
    return this;
  }

  removeAllListeners(eventName?: 'event' | 'finished'): this {
    if (eventName !== 'finished') this.listeners?.event.clear();
    if (eventName !== 'event') this.listeners?.finished.clear();
    this.onceWrappers?.clear();
    return this;
  }

  private set(eventName: 'event' | 'finished'): Set<(event: E) => void> {
    if (eventName !== 'event' && eventName !== 'finished') throw new TypeError(`Unknown bus event '${eventName}'`);
    this.listeners ??= { event: new Set(), finished: new Set() };
    return this.listeners[eventName] as Set<(event: E) => void>;
  }
}
