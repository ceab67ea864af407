import { describe, expect, it } from 'vitest';
import { A2AError } from '../errors.js';
import { ConcurrentModificationError } from '../store/task-store.js';
import { retryOnConflict, retryWhileUnavailable } from './store-retry.js';

const conflict = (actual: number) => new ConcurrentModificationError('t', actual - 1, actual);

describe('retryOnConflict', () => {
  it('retries a lost race with the conflict in hand, and answers what the write returns', async () => {
    const seen: (number | undefined)[] = [];
    const result = await retryOnConflict(5, async (last) => {
      seen.push(last?.actualVersion);
      if (seen.length < 3) throw conflict(seen.length + 10);
      return 'written';
    });
    expect(result).toBe('written');
    expect(seen).toEqual([undefined, 11, 12]);
  });

  it('gives up after `attempts` tries: the last conflict by default, else what `exhausted` makes of it', async () => {
    let tries = 0;
    const losing = async () => {
      tries++;
      throw conflict(tries);
    };
    const last = await retryOnConflict(3, losing).catch((error: unknown) => error);
    expect(tries).toBe(3);
    expect(last).toBeInstanceOf(ConcurrentModificationError);
    expect((last as ConcurrentModificationError).actualVersion).toBe(3);
    tries = 0;
    const mapped = new Error('kept changing');
    await expect(retryOnConflict(2, losing, () => mapped)).rejects.toBe(mapped);
    expect(tries).toBe(2);
  });

  it('throws any other error at once', async () => {
    let tries = 0;
    const other = new Error('store down');
    const failing = async () => {
      tries++;
      throw other;
    };
    await expect(retryOnConflict(5, failing, () => new Error('not this'))).rejects.toBe(other);
    expect(tries).toBe(1);
  });
});

describe('retryWhileUnavailable', () => {
  const unavailable = () => new A2AError('Unavailable', 'store down');

  it('reads again while the store is unavailable, and answers what the read returns', async () => {
    let tries = 0;
    const read = async () => {
      if (++tries < 3) throw unavailable();
      return 'task';
    };
    expect(await retryWhileUnavailable(60_000, read)).toBe('task');
    expect(tries).toBe(3);
  });

  it('throws any other error at once, and an outage once retryMs is spent', async () => {
    let tries = 0;
    const broken = new Error('bug');
    await expect(
      retryWhileUnavailable(60_000, async () => {
        tries++;
        throw broken;
      }),
    ).rejects.toBe(broken);
    expect(tries).toBe(1);
    const down = unavailable();
    await expect(
      retryWhileUnavailable(0, async () => {
        throw down;
      }),
    ).rejects.toBe(down);
  });
});
