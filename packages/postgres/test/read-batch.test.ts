import { describe, expect, it } from 'vitest';
import { ReadBatcher } from '../src/read-batch.js';

interface Row {
  id: string;
  value: { n: number };
}

/** A batcher over a fake table whose queries the test releases one by one. */
function setup(options: { maxInFlight?: number; maxBatch?: number } = {}) {
  const table = new Map<string, Row>([
    ['a', { id: 'a', value: { n: 1 } }],
    ['b', { id: 'b', value: { n: 2 } }],
    ['c', { id: 'c', value: { n: 3 } }],
  ]);
  const queries: { ids: string[]; release: (error?: Error) => void }[] = [];
  const batcher = new ReadBatcher<Row>(
    (ids) =>
      new Promise((resolve, reject) => {
        queries.push({
          ids,
          release: (error) =>
            error
              ? reject(error)
              : resolve(ids.flatMap((id) => (table.has(id) ? [structuredClone(table.get(id) as Row)] : []))),
        });
      }),
    (row) => structuredClone(row),
    options,
  );
  return { batcher, queries };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadBatcher', () => {
  it('sends a read at once while fewer than maxInFlight are out, and groups the reads issued meanwhile', async () => {
    const { batcher, queries } = setup({ maxInFlight: 1 });
    const first = batcher.read('a');
    expect(queries.map((q) => q.ids)).toEqual([['a']]);
    const rest = [batcher.read('b'), batcher.read('c'), batcher.read('missing')];
    expect(queries).toHaveLength(1);
    queries[0]?.release();
    expect((await first)?.value.n).toBe(1);
    await tick();
    expect(queries.map((q) => q.ids)).toEqual([['a'], ['b', 'c', 'missing']]);
    queries[1]?.release();
    expect((await Promise.all(rest)).map((r) => r?.value.n)).toEqual([2, 3, undefined]);
  });

  it('asks for an id once per batch and gives each reader of it its own row', async () => {
    const { batcher, queries } = setup({ maxInFlight: 1 });
    void batcher.read('c');
    const twice = [batcher.read('a'), batcher.read('a')];
    queries[0]?.release();
    await tick();
    expect(queries[1]?.ids).toEqual(['a']);
    queries[1]?.release();
    const [one, two] = await Promise.all(twice);
    expect(one).toEqual(two);
    expect(one).not.toBe(two);
    expect(one?.value).not.toBe(two?.value);
  });

  it('splits at maxBatch, and a failed query fails only its own readers', async () => {
    const { batcher, queries } = setup({ maxInFlight: 1, maxBatch: 2 });
    const first = batcher.read('a');
    const second = [batcher.read('b'), batcher.read('c')];
    const third = batcher.read('a');
    queries[0]?.release();
    await first;
    await tick();
    expect(queries.map((q) => q.ids)).toEqual([['a'], ['b', 'c']]);
    queries[1]?.release(new Error('connection lost'));
    for (const read of second) await expect(read).rejects.toThrow('connection lost');
    await tick();
    expect(queries[2]?.ids).toEqual(['a']);
    queries[2]?.release();
    expect((await third)?.value.n).toBe(1);
  });
});
