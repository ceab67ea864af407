import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.js';

describe('BoundedCache', () => {
  it('evicts the least recently used entry and reports it', () => {
    const removed: string[] = [];
    const cache = new BoundedCache<string, number>({ max: 2, onRemove: (_, key) => removed.push(key) });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(removed).toEqual(['b']);
    expect(cache.has('b')).toBe(false);
    expect(cache.size).toBe(2);
  });

  it('re-storing the same value is no removal; a different value is', () => {
    const removed: number[] = [];
    const cache = new BoundedCache<string, { n: number }>({ max: 2, onRemove: (value) => removed.push(value.n) });
    const one = { n: 1 };
    cache.set('a', one);
    cache.set('a', one, 1000);
    expect(removed).toEqual([]);
    cache.set('a', { n: 2 });
    expect(removed).toEqual([1]);
    expect(cache.delete('a')).toBe(true);
    expect(removed).toEqual([1, 2]);
  });

  it('expires entries per entry or by default, on read or by purgeExpired()', async () => {
    const removed: string[] = [];
    const cache = new BoundedCache<string, number>({ max: 10, ttlMs: 10, onRemove: (_, key) => removed.push(key) });
    cache.set('short', 1);
    cache.set('long', 2, 60_000);
    cache.set('forever', 3, 0);
    cache.set('other', 4, 5);
    await new Promise((r) => setTimeout(r, 30));
    expect(cache.has('short')).toBe(false);
    expect(cache.get('short')).toBeUndefined();
    expect(removed).toEqual(['short']);
    cache.purgeExpired();
    expect(removed).toEqual(['short', 'other']);
    expect(cache.get('long')).toBe(2);
    expect(cache.get('forever')).toBe(3);
    expect(cache.size).toBe(2);
  });
});
