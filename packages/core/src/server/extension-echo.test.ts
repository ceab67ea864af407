import { describe, expect, it } from 'vitest';
import { echoExtension } from './extension-echo.js';

describe('echoExtension', () => {
  it('adds a URI once, keeping the order', () => {
    const headers: Record<string, string> = { 'a2a-extensions': 'urn:a' };
    echoExtension(headers, 'urn:b', true);
    echoExtension(headers, 'urn:b', true);
    expect(headers).toEqual({ 'a2a-extensions': 'urn:a, urn:b' });
  });

  it('removes a URI, and the header with the last one', () => {
    const headers: Record<string, string> = { 'a2a-extensions': 'urn:a, urn:b', other: 'x' };
    echoExtension(headers, 'urn:a', false);
    expect(headers).toEqual({ 'a2a-extensions': 'urn:b', other: 'x' });
    echoExtension(headers, 'urn:b', false);
    echoExtension(headers, 'urn:c', false);
    expect(headers).toEqual({ other: 'x' });
  });
});
