import { expect, it } from 'vitest';
import { a2aKoa } from '../src/index.js';

it('refuses a missing handler at setup, saying what to pass', () => {
  expect(() => a2aKoa(undefined as never)).toThrow(/a2aKoa needs the handler that createA2AHandler.*got undefined/);
  expect(() => a2aKoa((() => {}) as never)).toThrow(/got a function/);
});

it('refuses a basePath handler under a prefix at setup, and names what the framework was given uncalled', () => {
  const handler = { handle: async () => undefined, mount: { basePath: '/a2a', rootPaths: [] } };
  expect(() => a2aKoa(handler, { prefix: '/api' })).toThrow(/a2aKoa: the handler has basePath '\/a2a'.*\('\/api'\)/);
  expect(() => a2aKoa(handler)).not.toThrow();
  // `app.use(a2aKoa)`: Koa calls it with its context.
  const ctx = { req: {}, res: {}, request: {}, response: {} };
  expect(() => (a2aKoa as (...args: unknown[]) => unknown)(ctx, async () => {})).toThrow(
    /but a request: a2aKoa was given to the framework uncalled; mount what it returns, e\.g\. app\.use\(a2aKoa\(handler\)\)/,
  );
});
