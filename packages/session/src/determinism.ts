import { randomBytes } from 'node:crypto';

/** Where time comes from; injected so tests can assert exact timestamps. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Where ids come from; injected so tests can assert exact ids. */
export interface IdGenerator {
  /** A new id, e.g. `cp_3f9a0c…` for prefix `cp`. Unique within a state dir. */
  next(prefix: string): string;
}

export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}_${randomBytes(6).toString('hex')}`,
};

/** A clock that starts at `start` and advances by `stepMs` at every reading (for tests). */
export function steppingClock(start: Date, stepMs = 1000): Clock {
  let t = start.getTime();
  return {
    now() {
      const d = new Date(t);
      t += stepMs;
      return d;
    },
  };
}

/** Ids `prefix_1`, `prefix_2`, … counted per prefix (for tests). */
export function sequentialIds(): IdGenerator {
  const counters = new Map<string, number>();
  return {
    next(prefix) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${n}`;
    },
  };
}
