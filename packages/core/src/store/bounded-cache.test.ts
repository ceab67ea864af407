import fc from 'fast-check';
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

  it('peek reads without marking the entry used', () => {
    const removed: string[] = [];
    const cache = new BoundedCache<string, number>({ max: 2, onRemove: (_, key) => removed.push(key) });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.peek('a')).toBe(1); // a stays the least recent
    cache.set('c', 3);
    expect(removed).toEqual(['a']);
    expect(cache.peek('a')).toBeUndefined();
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
    cache.set('next to it', 5, 5); // two expired entries in a row: the walk removes both
    await new Promise((r) => setTimeout(r, 30));
    expect(cache.has('short')).toBe(false);
    expect(cache.get('short')).toBeUndefined();
    expect(removed).toEqual(['short']);
    cache.purgeExpired();
    expect(removed).toEqual(['short', 'other', 'next to it']);
    expect(cache.get('long')).toBe(2);
    expect(cache.get('forever')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('keeps and evicts exactly what a plain least-recently-used list does, over any sequence of operations', () => {
    // The model: an array, most recent last; a read or a store moves the key to the end, a new key past max drops
    // the first. The cache keeps its order in a Map and evicts through one long-lived iterator: this checks both.
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.nat(6), value: fc.nat(3) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.nat(6) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.nat(6) }),
      fc.record({ kind: fc.constant('has' as const), key: fc.nat(6) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(op, { minLength: 20, maxLength: 200, size: 'max' }),
        (max, ops) => {
          const removed: string[] = [];
          const cache = new BoundedCache<number, number>({ max, onRemove: (v, k) => removed.push(`${k}=${v}`) });
          const model: [number, number][] = [];
          const expectedRemoved: string[] = [];
          const at = (key: number) => model.findIndex(([k]) => k === key);
          for (const o of ops) {
            const i = at(o.key);
            if (o.kind === 'set') {
              if (i >= 0) {
                const [entry] = model.splice(i, 1) as [[number, number]];
                if (entry[1] !== o.value) expectedRemoved.push(`${o.key}=${entry[1]}`);
              } else if (model.length === max) {
                const [k, v] = model.shift() as [number, number];
                expectedRemoved.push(`${k}=${v}`);
              }
              model.push([o.key, o.value]);
              cache.set(o.key, o.value);
            } else if (o.kind === 'get') {
              if (i >= 0) model.push(...model.splice(i, 1));
              expect(cache.get(o.key)).toBe(i >= 0 ? model[model.length - 1]?.[1] : undefined);
            } else if (o.kind === 'delete') {
              if (i >= 0) expectedRemoved.push(`${o.key}=${model.splice(i, 1)[0]?.[1]}`);
              expect(cache.delete(o.key)).toBe(i >= 0);
            } else expect(cache.has(o.key)).toBe(i >= 0);
            expect(cache.size).toBe(model.length);
          }
          expect(removed).toEqual(expectedRemoved);
        },
      ),
      { seed: 39, numRuns: 500 },
    );
  });
});
