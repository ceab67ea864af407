import { describe, expect, it } from 'vitest';
import { parseRequestUrl } from './request-url.js';

describe('parseRequestUrl', () => {
  const cases = [
    'http://127.0.0.1:41377/a2a/jsonrpc',
    'http://localhost/',
    'https://agent.example.com/a2a/tasks/abc-123:cancel',
    'https://agent.example.com:8443/v1/message:send',
    'http://Agent.Example.com:80/x',
    'https://a.example:443/x',
    'http://a.example:0080/x',
    'http://a.example/a/../b',
    'http://a.example/a/./b/.',
    'http://a.example/tasks/a%2Fb',
    'http://a.example/tasks?id=1&A2A-Version=1.0',
    'http://a.example/x#frag',
    'http://user:pw@a.example/x',
    'http://a.example/.well-known/agent-card.json',
    'http://[::1]:8080/a2a',
    'http://a.example/a\\b',
    'http://a.example:65535/x',
    'http://127.1/x',
    'http://0x7f.0.0.1/x',
    'http://2130706433/x',
    'http://10.0.0.1./x',
    'http://xn--nxasmq6b.example/x',
    'http://a1.example/x',
  ];
  it.each(cases)('agrees with new URL() on %s', (href) => {
    const fast = parseRequestUrl(href);
    const real = new URL(href);
    expect({ origin: fast.origin, pathname: fast.pathname, search: fast.search }).toEqual({
      origin: real.origin,
      pathname: real.pathname,
      search: real.search,
    });
    expect([...fast.searchParams]).toEqual([...real.searchParams]);
  });

  it('answers each URL for itself when the last one is kept, the same one twice included', () => {
    for (const href of ['http://a.example/x', 'http://a.example/x', 'http://a.example/y', 'http://b.example/x']) {
      const { origin, pathname } = parseRequestUrl(href);
      expect({ origin, pathname }).toEqual({ origin: new URL(href).origin, pathname: new URL(href).pathname });
    }
    parseRequestUrl('http://a.example/x');
    expect(() => parseRequestUrl('http://a.example:65536/x')).toThrow(TypeError);
  });

  it('leaves invalid URLs to new URL(), which rejects them', () => {
    expect(() => parseRequestUrl('http://a.example:65536/x')).toThrow(TypeError);
  });
});
