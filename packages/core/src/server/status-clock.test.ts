import { describe, expect, it } from 'vitest';
import { statusClock } from './status-clock.js';

describe('statusClock', () => {
  it('never goes backwards when the source clock does', () => {
    const times = ['2026-01-01T00:00:02.000Z', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:03.000Z'];
    const now = statusClock(() => times.shift() ?? '');
    expect([now(), now(), now()]).toEqual([
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:03.000Z',
    ]);
  });

  it('reads the system clock by default, as ISO-8601', () => {
    expect(statusClock()()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
