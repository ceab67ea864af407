import { describe, expect, it } from 'vitest';
import { headersView } from './headers-view.js';

describe('headersView', () => {
  it('answers get and has as Headers does, for lowercase and mixed-case names on either side', () => {
    for (const raw of [
      ['content-type', 'application/json', 'x-a', ' 1 ', 'x-a', '2'],
      ['Content-Type', 'application/json', 'X-A', ' 1 ', 'x-a', '2'],
      ['content-type', 'application/json', 'X-a', ' 1 ', 'x-A', '2'],
    ]) {
      const view = headersView(raw);
      const real = new Headers();
      for (let i = 0; i < raw.length; i += 2) real.append(raw[i] as string, raw[i + 1] as string);
      for (const name of ['content-type', 'Content-Type', 'x-a', 'X-A', 'accept']) {
        expect(view.get(name)).toBe(real.get(name));
        expect(view.has(name)).toBe(real.has(name));
      }
    }
  });
});
