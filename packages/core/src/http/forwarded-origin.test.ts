import { describe, expect, it } from 'vitest';
import { forwardedOrigin } from './forwarded-origin.js';

const own = 'http://localhost:3000';
const of = (headers: Record<string, string>) => forwardedOrigin(new Headers(headers), own);

describe('forwardedOrigin', () => {
  it('takes the first proto and host the proxy chain names', () => {
    expect(of({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'agent.example.com' })).toBe(
      'https://agent.example.com',
    );
    expect(of({ 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'a.example:8443, b.internal' })).toBe(
      'https://a.example:8443',
    );
    expect(of({ 'x-forwarded-host': 'Agent.Example.com' })).toBe('http://agent.example.com');
    expect(of({ 'x-forwarded-proto': 'https' })).toBe('https://localhost:3000');
    expect(of({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.example:443' })).toBe('https://a.example');
    expect(of({ 'x-forwarded-host': '[::1]:8080' })).toBe('http://[::1]:8080');
  });

  it('is undefined without the headers, and for anything that is not an http(s) origin', () => {
    expect(of({})).toBeUndefined();
    for (const host of ['a.example/evil', 'user@a.example', 'a.example:99999', 'a.example?x', 'a.example#x', '']) {
      expect(of({ 'x-forwarded-host': host }), host).toBeUndefined();
    }
    expect(of({ 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'a.example' })).toBeUndefined();
    expect(of({ 'x-forwarded-proto': 'file' })).toBeUndefined();
  });
});
