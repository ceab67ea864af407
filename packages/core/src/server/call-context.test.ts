import { describe, expect, it, vi } from 'vitest';
import { extendCall, onCallAbort, RequestCall } from './call-context.js';

/** A host whose client can leave, counting the AbortSignals it had to make. */
function host() {
  const listeners = new Set<() => void>();
  const controller = new AbortController();
  const made = { signals: 0 };
  return {
    made,
    listeners,
    disconnect: {
      signal: () => {
        made.signals++;
        return controller.signal;
      },
      onAbort: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    leave() {
      for (const listener of listeners) listener();
      controller.abort();
    },
  };
}

describe('RequestCall disconnects', () => {
  it('hears of a departed client through the host hook without making a signal', () => {
    const h = host();
    const call = new RequestCall({}, h.disconnect);
    const listener = vi.fn();
    onCallAbort(call, listener);
    h.leave();
    expect(listener).toHaveBeenCalledOnce();
    expect(h.made.signals).toBe(0);
  });

  it('detaches: a closed stream is not called when the client leaves later', () => {
    const h = host();
    const listener = vi.fn();
    const detach = onCallAbort(new RequestCall({}, h.disconnect), listener);
    detach();
    h.leave();
    expect(listener).not.toHaveBeenCalled();
    expect(h.listeners.size).toBe(0);
  });

  it('makes the signal once, on first read, and an extended call shares both', () => {
    const h = host();
    const call = new RequestCall({ tenant: 'a' }, h.disconnect);
    const extended = extendCall(call, { tenant: 'b', protocolVersion: '0.3' });
    const listener = vi.fn();
    onCallAbort(extended, listener);
    expect(h.made.signals).toBe(0);
    expect(extended.signal).toBe(call.signal);
    expect(h.made.signals).toBe(1);
    expect(extended).toMatchObject({ tenant: 'b', protocolVersion: '0.3' });
    h.leave();
    expect(listener).toHaveBeenCalledOnce();
    expect(call.signal.aborted).toBe(true);
  });

  it('falls back to the signal when the host has no hook', () => {
    const controller = new AbortController();
    const listener = vi.fn();
    onCallAbort(new RequestCall({}, { signal: () => controller.signal }), listener);
    controller.abort();
    expect(listener).toHaveBeenCalledOnce();
  });

  it('works on plain calls: with a signal (already aborted: at once) and without one (never)', () => {
    const aborted = AbortSignal.abort();
    const listener = vi.fn();
    onCallAbort({ signal: aborted }, listener);
    expect(listener).toHaveBeenCalledOnce();
    expect(() => onCallAbort({}, listener)()).not.toThrow();
  });
});
