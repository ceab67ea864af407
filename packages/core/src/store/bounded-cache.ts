// A bounded map with least-recently-used eviction and optional per-entry expiry: an entry past its deadline reads as
// absent and is removed on that read, or by purgeExpired(). Over a plain Map, whose iteration order is insertion
// order: a read moves its entry to the end (delete, then set again), and a new key past `max` evicts the first. It
// was lru.min (46 kB; lru-cache before it, 3.4 MB), whose import alone cost ~2.5 ms CPU at start-up on Node 20
// (docs/performance.md, "Cold start without Zod (issue 39)").

export interface BoundedCacheOptions<K, V> {
  /** Most entries kept; the least recently used one is evicted for a new key. */
  max: number;
  /** Default time to live of an entry in ms (0 or absent: no expiry). */
  ttlMs?: number;
  /** Called when an entry leaves: evicted for room, expired, deleted, or replaced by a different value. */
  onRemove?: (value: V, key: K) => void;
}

interface Slot<V> {
  value: V;
  /** Date.now() deadline; 0 = never. */
  expires: number;
}

export class BoundedCache<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private readonly max: number;
  private readonly ttlMs: number;
  private readonly onRemove: ((value: V, key: K) => void) | undefined;
  /** The key last moved to the end: reading it again moves nothing (a request reads its task several times). */
  private newest: K | undefined;
  /**
   * One live iterator over the keys, kept from eviction to eviction: every key it has passed was evicted, and a key
   * read or stored since moved behind it, so its next key is always the oldest. A fresh `keys()` per eviction cost
   * about as much as the rest of a request's cache work (docs/performance.md, "Hot-path tricks").
   */
  private oldest: Iterator<K> | undefined;

  constructor(options: BoundedCacheOptions<K, V>) {
    if (!(Number.isInteger(options.max) && options.max > 0)) throw new TypeError('`max` must be a positive integer');
    this.max = options.max;
    this.ttlMs = options.ttlMs ?? 0;
    this.onRemove = options.onRemove;
  }

  /** Entries held, expired ones not yet removed included. */
  get size(): number {
    return this.slots.size;
  }

  /** The value (and marks it most recently used); `undefined` when absent or expired. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    if (slot.expires !== 0 && slot.expires <= Date.now()) {
      this.delete(key);
      return undefined;
    }
    this.touch(key, slot);
    return slot.value;
  }

  /**
   * The value without marking it used; `undefined` when absent or expired. For a read right after the caller's own
   * write, which already marked it: moving a key again is a Map delete and set (issue 39, docs/performance.md).
   */
  peek(key: K): V | undefined {
    const slot = this.slots.get(key);
    return slot !== undefined && (slot.expires === 0 || slot.expires > Date.now()) ? slot.value : undefined;
  }

  /** Whether a live entry exists (does not change its recency). */
  has(key: K): boolean {
    const slot = this.slots.get(key);
    return slot !== undefined && (slot.expires === 0 || slot.expires > Date.now());
  }

  /** Stores `value` as the most recently used entry; `ttlMs` overrides the default time to live. */
  set(key: K, value: V, ttlMs = this.ttlMs): void {
    const expires = ttlMs > 0 ? Date.now() + ttlMs : 0;
    const slot = this.slots.get(key);
    if (slot === undefined) {
      if (this.slots.size >= this.max) this.evictOldest();
      this.slots.set(key, { value, expires });
      this.newest = key;
      return;
    }
    // Present: update in place, as the most recent. Re-storing the same value is no removal.
    this.touch(key, slot);
    const previous = slot.value;
    slot.value = value;
    slot.expires = expires;
    if (previous !== value) this.onRemove?.(previous, key);
  }

  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    this.slots.delete(key);
    this.onRemove?.(slot.value, key);
    return true;
  }

  /** Removes every expired entry (walks them all: callers rate-limit it). */
  purgeExpired(): void {
    const now = Date.now();
    // `forEach`, not `for...of` over the entries: no `[key, slot]` array per entry (10 000 of them a walk for a full
    // task store, once a second: ~0.25 KB per SendMessage in the per-request loop; docs/performance.md, issue 39).
    this.slots.forEach((slot, key) => {
      if (slot.expires !== 0 && slot.expires <= now) this.delete(key);
    });
  }

  private touch(key: K, slot: Slot<V>): void {
    if (this.newest === key) return;
    this.slots.delete(key);
    this.slots.set(key, slot);
    this.newest = key;
  }

  private evictOldest(): void {
    this.oldest ??= this.slots.keys();
    let next = this.oldest.next();
    if (next.done) {
      // Ran out once (every key it saw is gone): a Map iterator stays done, so start another.
      this.oldest = this.slots.keys();
      next = this.oldest.next();
    }
    if (!next.done) this.delete(next.value);
  }
}
