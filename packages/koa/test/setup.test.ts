import { expect, it } from 'vitest';
import { a2aKoa } from '../src/index.js';

it('refuses a missing handler at setup, saying what to pass', () => {
  expect(() => a2aKoa(undefined as never)).toThrow(/a2aKoa needs the handler that createA2AHandler.*got undefined/);
  expect(() => a2aKoa((() => {}) as never)).toThrow(/got a function/);
});
