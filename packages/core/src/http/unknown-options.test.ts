import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../index.js';
import { unknownOptionWarnings } from './unknown-options.js';

const agentCard = {
  name: 'A',
  description: 'd',
  version: '1',
  skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
};
const executor = { execute: async () => {} };

describe('unknown createA2AHandler options', () => {
  it('names each one, with the known option it is closest to', () => {
    const known = { routes: true, maxBodyBytes: true, basePath: true, agentCard: true } as const;
    expect(unknownOptionWarnings({ routs: {}, maxBodySize: 1, basePath: '/a2a', frobnicate: true }, known)).toEqual([
      "createA2AHandler: unknown option 'routs' (ignored); did you mean 'routes'?",
      "createA2AHandler: unknown option 'maxBodySize' (ignored); did you mean 'maxBodyBytes'?",
      "createA2AHandler: unknown option 'frobnicate' (ignored)",
    ]);
    expect(unknownOptionWarnings({ agentCard, basePath: '/x' }, known)).toEqual([]);
  });

  it('are reported through onWarning when the handler is made', () => {
    const warnings: string[] = [];
    createA2AHandler({ agentCard, executor, onWarning: (w) => warnings.push(w), ...{ maxBodySize: 10 } });
    expect(warnings).toContain(
      "createA2AHandler: unknown option 'maxBodySize' (ignored); did you mean 'maxBodyBytes'?",
    );
  });

  it('that left a required one missing are named in the setup error (it throws before any warning)', () => {
    expect(() => createA2AHandler({ agentCard, ...{ executer: executor } } as never)).toThrow(
      "createA2AHandler needs an agentCard and an executor (missing: executor), or a prepared requestHandler; unknown option 'executer': did you mean 'executor'?",
    );
    expect(() => createA2AHandler({ executor, ...{ agentcard: agentCard, rotes: {} } } as never)).toThrow(
      /missing: agentCard\), or a prepared requestHandler; unknown option 'agentcard': did you mean 'agentCard'\?$/,
    );
  });
});
