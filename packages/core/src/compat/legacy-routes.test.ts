import { describe, expect, it } from 'vitest';
import { LegacyMethods } from './legacy-methods.js';
import { LEGACY_METHOD_NAMES, legacyVersionOf } from './legacy-routes.js';

describe('legacy routes', () => {
  it('name the same methods, of the same versions, as the method tables', () => {
    expect([...LEGACY_METHOD_NAMES].sort()).toEqual(LegacyMethods.names().sort());
    for (const name of LEGACY_METHOD_NAMES) expect(legacyVersionOf(name)).toBe(LegacyMethods.find(name)?.version);
    expect(legacyVersionOf('SendMessage')).toBeUndefined();
    expect(legacyVersionOf('toString')).toBeUndefined();
  });
});
