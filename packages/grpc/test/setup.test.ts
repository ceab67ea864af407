import { createA2AHandler } from '@a2a/core';
import { expect, it } from 'vitest';
import { createA2AGrpcServer } from '../src/index.js';

it('refuses a missing or wrong handler at setup, saying what to pass', () => {
  expect(() => createA2AGrpcServer(undefined as never)).toThrow(
    /createA2AGrpcServer needs the handler that createA2AHandler.*got undefined/,
  );
  const options = {
    agentCard: {
      name: 'A',
      description: 'd',
      version: '1',
      skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
    },
    executor: { execute: () => {} },
  };
  expect(() => createA2AGrpcServer(options as never)).toThrow(/pass createA2AHandler\(options\)/);
  expect(() => createA2AGrpcServer({ handle: async () => undefined } as never)).toThrow(/not such a handler/);
  const server = createA2AGrpcServer(createA2AHandler(options));
  expect(server.server).toBeDefined();
});
