import { describe, expect, it } from 'vitest';
import { ReadWriteLock } from './locks.js';

function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
}

describe('ReadWriteLock', () => {
  it('runs shared sections together, an exclusive one alone, in arrival order', async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const first = gate();
    const r1 = lock.shared(async () => {
      log.push('r1 in');
      await first.wait;
      log.push('r1 out');
    });
    const r2 = lock.shared(() => {
      log.push('r2 in');
      return Promise.resolve();
    });
    const w = lock.exclusive(async () => {
      log.push('w in');
      await Promise.resolve();
      log.push('w out');
    });
    // A shared section asked for after the waiting exclusive one waits behind it.
    const r3 = lock.shared(() => {
      log.push('r3 in');
      return Promise.resolve();
    });
    await r2;
    expect(log).toEqual(['r1 in', 'r2 in']);
    first.open();
    await Promise.all([r1, w, r3]);
    expect(log).toEqual(['r1 in', 'r2 in', 'r1 out', 'w in', 'w out', 'r3 in']);
  });

  it('releases the section when the work throws', async () => {
    const lock = new ReadWriteLock();
    await expect(lock.exclusive(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.shared(() => Promise.resolve('after'))).resolves.toBe('after');
  });
});
