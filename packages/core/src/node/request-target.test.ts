import { describe, expect, it } from 'vitest';
import { joinRequestUrl, requestTarget } from './request-target.js';

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

  it('refuses a bad URL asked twice in a row, and answers a good one again after it', () => {
    expect(requestTarget('http://127.0.0.1:8080/a').refusal).toBeUndefined();
    expect(requestTarget('http://a b/x').refusal?.type).toBe('BadRequest');
    expect(requestTarget('http://a b/x').refusal?.type).toBe('BadRequest');
    expect(requestTarget('http://127.0.0.1:8080/a')).toEqual({ url: 'http://127.0.0.1:8080/a' });
  });
});

describe('joinRequestUrl', () => {
  it('joins each change of scheme, host or path anew after the last URL it kept', () => {
    expect(joinRequestUrl('', '', '')).toBe('://'); // before any URL was kept
    expect(joinRequestUrl('http', 'h:1', '/a')).toBe('http://h:1/a');
    expect(joinRequestUrl('http', 'h:1', '/a')).toBe('http://h:1/a');
    expect(joinRequestUrl('https', 'h:1', '/a')).toBe('https://h:1/a');
    expect(joinRequestUrl('https', 'h:2', '/a')).toBe('https://h:2/a');
    expect(joinRequestUrl('https', 'h:2', '/b')).toBe('https://h:2/b');
    expect(joinRequestUrl('https', 'u@h', '/b')).toBe('https://u%40h/b');
  });
});
