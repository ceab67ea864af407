import { createA2AHandler } from '@a2a/core';
import { expect, it } from 'vitest';
import { a2aExpress } from '../src/index.js';

it('refuses a missing handler at setup, saying what to pass', () => {
  expect(() => a2aExpress(undefined as never)).toThrow(/a2aExpress needs the handler that createA2AHandler/);
  const options = {
    agentCard: {
      name: 'A',
      description: 'd',
      version: '1',
      skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
    },
    executor: { execute: () => {} },
  };
  expect(() => a2aExpress(options as never)).toThrow(/pass createA2AHandler\(options\)/);
  expect(() => a2aExpress(createA2AHandler(options))).not.toThrow();
});
