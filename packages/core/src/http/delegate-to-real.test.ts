import { describe, expect, it } from 'vitest';
import { delegateToReal } from './delegate-to-real.js';

// A stand-in for a Fetch class: `named` counts how often the view had to name it (on Node 20, a load of undici).
function setUp() {
  class Web {
    readonly tag = 'real';
    get size(): number {
      return 3;
    }
    describe(prefix: string): string {
      return `${prefix} ${this.tag}`;
    }
  }
  class View {
    readonly cheap = 1;
    made = 0;
    #real: Web | undefined;
    own(): string {
      return 'own';
    }
    real(): Web {
      this.made++;
      this.#real ??= new Web();
      return this.#real;
    }
  }
  const named = { count: 0 };
  delegateToReal(
    View,
    () => {
      named.count++;
      return Web;
    },
    new Set(['cheap']),
  );
  return { Web, View, named };
}

describe('delegateToReal', () => {
  it('names the class only when someone reaches past the view: not for its own members, a promise or a symbol slot', async () => {
    const { View, named } = setUp();
    const view = new View();
    expect([view.cheap, view.own()]).toEqual([1, 'own']);
    expect(await Promise.resolve(view)).toBe(view); // a promise asks for `then`
    Object.defineProperty(view, Symbol('slot'), { value: 1, writable: true, configurable: true });
    expect(named.count).toBe(0);
  });

  it('instanceof names the class and holds, for views made before and after', () => {
    const { Web, View, named } = setUp();
    const before = new View();
    expect(before).toBeInstanceOf(Web);
    expect(named.count).toBe(1);
    expect(new View()).toBeInstanceOf(Web);
    expect(before).toBeInstanceOf(Object);
    expect(Object.getPrototypeOf(View.prototype)).toBe(Web.prototype); // the stand-in is out of the chain
    expect(named.count).toBe(1);
  });

  it('forwards the members it lacks (getters and methods) to the real instance, made once', () => {
    const { View, named } = setUp();
    const view = new View();
    expect(view as unknown as { size: number }).toHaveProperty('size', 3);
    expect((view as unknown as { describe(p: string): string }).describe('a')).toBe('a real');
    expect([view.made > 0, named.count]).toEqual([true, 1]);
    expect(view.own()).toBe('own'); // its own members are not replaced
  });

  it('answers `in` and assignments as the real chain would', () => {
    const first = setUp();
    expect('describe' in new first.View()).toBe(true);
    expect('missing' in new first.View()).toBe(false);
    const second = setUp();
    const view = new second.View() as unknown as Record<string, unknown>;
    view.extra = 2;
    expect([Object.hasOwn(view, 'extra'), view.extra, second.named.count]).toEqual([true, 2, 1]);
  });
});
