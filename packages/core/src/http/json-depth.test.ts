import { describe, expect, it } from 'vitest';
import { tooDeepPath } from './json-depth.js';

/** `{ a: [ { a: [ … ] } ] }`, `levels` objects and arrays deep (the value itself is level 1). */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = levels; i >= 1; i--) value = i % 2 ? { a: value } : [value];
  return value;
}

describe('tooDeepPath', () => {
  // Both walks: the recursive one up to its limit of 256, the one with stacks of its own above it.
  for (const maxDepth of [1, 3, 64, 256, 257, 1000]) {
    it(`finds the first level past ${maxDepth}, and nothing within it`, () => {
      expect(tooDeepPath(nested(maxDepth), maxDepth)).toBeUndefined();
      const path = tooDeepPath({ ok: nested(maxDepth - 1), bad: nested(maxDepth) }, maxDepth);
      expect(path?.length).toBe(maxDepth);
      expect(path?.[0]).toBe('bad');
    });
  }

  it('walks a value far deeper than the call stack allows under a limit as deep', () => {
    expect(tooDeepPath(nested(200_000), 300_000)).toBeUndefined();
    expect(tooDeepPath(nested(200_000), 100_000)?.length).toBe(100_000);
  });
});
