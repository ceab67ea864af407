import { describe, expect, it } from 'vitest';
import { ListOrder } from './list-order.js';

describe('ListOrder', () => {
  it('lists live entries newest first, after moves and removals, below a cursor, across compactions', () => {
    const order = new ListOrder<{ id: number; listSeq: number }>('owner');
    let seq = 0;
    const entries = Array.from({ length: 500 }, (_, id) => ({ id, listSeq: ++seq }));
    for (const entry of entries) order.add(entry);
    // Move every even entry to the end (several times, so stale slots pile up and get compacted).
    for (let round = 0; round < 3; round++) {
      for (const entry of entries) {
        if (entry.id % 2 === 0) {
          entry.listSeq = ++seq;
          order.moved(entry);
        }
      }
    }
    for (const entry of entries) if (entry.id % 3 === 0) order.remove(entry);

    const live = entries.filter((e) => e.id % 3 !== 0);
    const expected = [...live].sort((a, b) => b.listSeq - a.listSeq).map((e) => e.id);
    expect(order.size).toBe(live.length);
    expect(Array.from(order.newestFirst(), (e) => e.id)).toEqual(expected);
    const cursor = (live.find((e) => e.id === 250) as { listSeq: number }).listSeq;
    expect(Array.from(order.newestFirst(cursor), (e) => e.id)).toEqual(
      [...live]
        .filter((e) => e.listSeq < cursor)
        .sort((a, b) => b.listSeq - a.listSeq)
        .map((e) => e.id),
    );
  });
});
