import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actsBehaviours } from '../src/acts-behaviours.js';

// acts/sut-behaviors.yaml is what the SUT claims and the ACTS runner gates tests on; the code is what it does. One
// list each, so a claim without a behaviour (or the reverse) shows here rather than as a corpus failure.
const contract = readFileSync(new URL('../../../acts/sut-behaviors.yaml', import.meta.url), 'utf8');

describe('acts/sut-behaviors.yaml', () => {
  it('declares exactly the behaviours the agent implements, at the two top-level keys ACTS allows', () => {
    const declared = [...contract.matchAll(/^ {2}- prefix: "([^"]+)"$/gm)].map((m) => m[1]);
    expect(declared).toHaveLength(16);
    expect([...declared].sort()).toEqual(Object.keys(actsBehaviours({ longRunningMs: 0 })).sort());
    expect([...contract.matchAll(/^([a-z_]+):/gm)].map((m) => m[1])).toEqual(['acts_version', 'behaviors']);
  });
});
