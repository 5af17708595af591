import { describe, expect, it } from 'vitest';
import { brokersUsage, evictionOrder, evictUntilUnderBudget, type EvictionCandidate } from './evictionPlan.js';

const MiB = 2 ** 20;

function broker(key: string, lastActivityAt: string, rssMiB: number, clients = 0): EvictionCandidate {
  return { key, clients, lastActivityAt, rssBytes: rssMiB * MiB };
}

const a = broker('aaaa', '2026-11-23T08:00:00.000Z', 100);
const b = broker('bbbb', '2026-11-23T07:00:00.000Z', 200);
const c = broker('cccc', '2026-11-23T09:00:00.000Z', 300);
const busy = broker('dddd', '2026-11-23T06:00:00.000Z', 400, 2);

describe('evictionOrder', () => {
  it('is least recently used first, idle brokers only, never the one being spawned', () => {
    expect(evictionOrder([a, b, c, busy]).map((d) => d.key)).toEqual(['bbbb', 'aaaa', 'cccc']);
    expect(evictionOrder([a, b, c, busy], 'aaaa').map((d) => d.key)).toEqual(['bbbb', 'cccc']);
    expect(evictionOrder([busy])).toEqual([]);
  });

  it('breaks ties by key and puts unreadable times first', () => {
    const twin = broker('0000', a.lastActivityAt, 1);
    const garbled = broker('ffff', 'yesterday', 1);
    expect(evictionOrder([a, twin, garbled]).map((d) => d.key)).toEqual(['ffff', '0000', 'aaaa']);
  });
});

describe('evictUntilUnderBudget', () => {
  const all = [a, b, c, busy];

  it('evicts nothing while usage is under the budget', async () => {
    const asked: string[] = [];
    const out = await evictUntilUnderBudget(all, 1001 * MiB, undefined, (d) => (asked.push(d.key), Promise.resolve(true)));
    expect(asked).toEqual([]);
    expect(out).toMatchObject({ usageBefore: 1000 * MiB, usageAfter: 1000 * MiB, evicted: [], refused: [] });
  });

  it('evicts in LRU order until usage is under the budget, at or over counting as over', async () => {
    const asked: string[] = [];
    // 1000 MiB used; budget 800: evicting b (200) leaves exactly 800, still not under: a goes too.
    const out = await evictUntilUnderBudget(all, 800 * MiB, undefined, (d) => (asked.push(d.key), Promise.resolve(true)));
    expect(asked).toEqual(['bbbb', 'aaaa']);
    expect(out.usageAfter).toBe(700 * MiB);
    expect(out.evicted.map((d) => d.key)).toEqual(['bbbb', 'aaaa']);
  });

  it('with a one-byte budget asks every idle broker and never one with clients or the new one', async () => {
    const asked: string[] = [];
    const out = await evictUntilUnderBudget(all, 1, 'cccc', (d) => (asked.push(d.key), Promise.resolve(true)));
    expect(asked).toEqual(['bbbb', 'aaaa']);
    expect(out.usageAfter).toBe(700 * MiB);
    expect(brokersUsage(all)).toBe(1000 * MiB);
  });

  it('moves on past a broker that refuses (a client arrived), and reports it', async () => {
    // 1000 MiB used, budget 950: b refuses, a (100) goes, and 900 is under.
    const out = await evictUntilUnderBudget(all, 950 * MiB, undefined, (d) => Promise.resolve(d.key === 'bbbb' ? 'it has 1 client(s) connected' : true));
    expect(out.refused).toEqual([{ daemon: b, why: 'it has 1 client(s) connected' }]);
    expect(out.evicted.map((d) => d.key)).toEqual(['aaaa']);
    expect(out.usageAfter).toBe(900 * MiB);
  });
});
