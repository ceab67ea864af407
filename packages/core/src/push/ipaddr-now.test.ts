import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Where the runtime has no synchronous require (a bundle with no node_modules beside it, Workers), the guard loads
// ipaddr.js with import(): its checks wait for `ready()`, and the push sender waits for it by itself.
describe('the push URL guard where ipaddr.js cannot load synchronously', () => {
  const host = process as { getBuiltinModule?: unknown };
  const getBuiltinModule = host.getBuiltinModule;
  beforeEach(() => {
    vi.resetModules(); // a fresh ipaddr-now.ts, with nothing loaded
    host.getBuiltinModule = undefined;
  });
  afterEach(() => {
    host.getBuiltinModule = getBuiltinModule;
  });

  it('says it is not ready yet, then checks as usual once ready() resolved', async () => {
    const { PushUrlGuard } = await import('./ssrf-guard.js');
    const guard = new PushUrlGuard({ allow: ['10.0.0.0/8', 'dev.test'] });
    expect(() => guard.checkUrl('http://10.1.2.3/hook')).toThrow(/await guard\.ready\(\)/);
    await guard.ready();
    expect(guard.checkUrl('http://10.1.2.3/hook').hostname).toBe('10.1.2.3');
    expect(guard.isAllowedHost('DEV.test')).toBe(true);
    expect(guard.blockedRange('127.0.0.1')).toBe('loopback');
    expect(() => guard.checkUrl('http://169.254.169.254/')).toThrow(/linkLocal/);
  });

  it('the push sender validates a webhook URL without anyone calling ready()', async () => {
    const { PushSender } = await import('./push-sender.js');
    const sender = new PushSender();
    await expect(sender.validatePushUrl?.('http://127.0.0.1/hook')).rejects.toThrow(/loopback/);
    await expect(sender.validatePushUrl?.('https://example.com/hook')).resolves.toBeUndefined();
  });
});
