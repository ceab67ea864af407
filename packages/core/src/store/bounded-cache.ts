import { createLRU } from 'lru.min';

// A bounded map with least-recently-used eviction and optional per-entry expiry, over lru.min (a 46 kB dependency-free
// LRU; lru-cache, used before, installs 3.4 MB). The expiry layer is the part lru.min does not have: an entry past its
// deadline reads as absent and is removed on that read, or by purgeExpired().

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
  private readonly lru: ReturnType<typeof createLRU<K, Slot<V>>>;
  private readonly ttlMs: number;
  private readonly onRemove: ((value: V, key: K) => void) | undefined;

  constructor(options: BoundedCacheOptions<K, V>) {
    this.ttlMs = options.ttlMs ?? 0;
    const onRemove = options.onRemove;
    this.onRemove = onRemove;
    // lru.min reports evictions and deletes here (set() on a present key is handled below, without lru.min's set).
    this.lru = createLRU<K, Slot<V>>({
      max: options.max,
      ...(onRemove && { onEviction: (key: K, slot: Slot<V>) => onRemove(slot.value, key) }),
    });
  }

  /** Entries held, expired ones not yet removed included. */
  get size(): number {
    return this.lru.size;
  }

  /** The value (and marks it most recently used); `undefined` when absent or expired. */
  get(key: K): V | undefined {
    const slot = this.lru.get(key);
    if (slot === undefined) return undefined;
    if (slot.expires !== 0 && slot.expires <= Date.now()) {
      this.lru.delete(key);
      return undefined;
    }
    return slot.value;
  }

  /** Whether a live entry exists (does not change its recency). */
  has(key: K): boolean {
    const slot = this.lru.peek(key);
    return slot !== undefined && (slot.expires === 0 || slot.expires > Date.now());
  }

  /** Stores `value` as the most recently used entry; `ttlMs` overrides the default time to live. */
  set(key: K, value: V, ttlMs = this.ttlMs): void {
    const expires = ttlMs > 0 ? Date.now() + ttlMs : 0;
    const slot = this.lru.get(key);
    if (slot === undefined) {
      this.lru.set(key, { value, expires });
      return;
    }
    // Present: update in place (lru.get above made it the most recent). Re-storing the same value is no removal.
    const previous = slot.value;
    slot.value = value;
    slot.expires = expires;
    if (previous !== value) this.onRemove?.(previous, key);
  }

  delete(key: K): boolean {
    return this.lru.delete(key);
  }

  /** Removes every expired entry (walks them all: callers rate-limit it). */
  purgeExpired(): void {
    const now = Date.now();
    const expired: K[] = [];
    for (const [key, slot] of this.lru.entries()) if (slot.expires !== 0 && slot.expires <= now) expired.push(key);
    for (const key of expired) this.lru.delete(key);
  }
}
