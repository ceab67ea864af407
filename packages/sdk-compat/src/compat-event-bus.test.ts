import { describe, expect, it } from 'vitest';
import { CompatEventBus } from './compat-event-bus.js';

describe('CompatEventBus', () => {
  it('hands each event to the sink first, then to listeners; once-listeners run once; off removes either kind', () => {
    const seen: string[] = [];
    const bus = new CompatEventBus<string>((event) => seen.push(`sink:${event}`));
    const always = (event: string) => seen.push(`on:${event}`);
    const first = (event: string) => seen.push(`once:${event}`);
    const removed = (event: string) => seen.push(`off:${event}`);
    bus.on('event', always).once('event', first).once('event', removed).off('event', removed);
    bus.publish('a');
    bus.publish('b');
    bus.off('event', always);
    bus.publish('c');
    expect(seen).toEqual(['sink:a', 'on:a', 'once:a', 'sink:b', 'on:b', 'sink:c']);
  });

  it("runs 'finished' listeners once, and removeAllListeners clears them", () => {
    let finished = 0;
    const bus = new CompatEventBus<string>(() => {});
    bus.on('finished', () => finished++);
    bus.finished();
    bus.finished();
    expect([finished, bus.isFinished]).toEqual([1, true]);
    const other = new CompatEventBus<string>(() => {});
    other.on('finished', () => finished++).removeAllListeners();
    other.finished();
    expect(finished).toBe(1);
  });

  it('refuses an event name the SDK does not have', () => {
    const bus = new CompatEventBus<string>(() => {});
    expect(() => bus.on('error' as 'event', () => {})).toThrow(/Unknown bus event 'error'/);
  });
});
