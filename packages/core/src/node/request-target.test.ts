import { describe, expect, it } from 'vitest';
import { requestTarget } from './request-target.js';

describe('requestTarget', () => {
  it('refuses a bad authority after a good one it kept, however much they share', () => {
    expect(requestTarget('http://127.0.0.1:8080/a').refusal).toBeUndefined();
    expect(requestTarget('http://127.0.0.1:8080/b').refusal).toBeUndefined();
    for (const bad of ['http://127.0.0.1:80800/a', 'http://127.0.0.1:8080%zz/a', 'http://127.0.0.1:99999/a']) {
      const target = requestTarget(bad);
      expect(target.refusal?.type).toBe('BadRequest');
      expect(target.url).toBe('http://invalid.invalid/a');
    }
    expect(requestTarget('http://127.0.0.1:8080').url).toBe('http://127.0.0.1:8080');
  });
});
