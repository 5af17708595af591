import { describe, expect, it } from 'vitest';
import { QueryCache, type CacheEntry } from './queryCache.js';
import { normalizedParams, queryKey } from './queryKey.js';

const entry = (key: string, bytes = 10, startedAt = Date.now()): CacheEntry => ({ key, connection: 'c1', method: 'm', rule: 'r', startedAt, settled: true, value: key, durationMs: 5, bytes, used: false, joined: false });

describe('query keys', () => {
  it('ignore key order and undefined members, but not values', () => {
    expect(normalizedParams({ position: { character: 1, line: 2 }, textDocument: { uri: 'u' }, extra: undefined })).toBe(normalizedParams({ textDocument: { uri: 'u' }, position: { line: 2, character: 1 } }));
    expect(normalizedParams({ position: { line: 2, character: 1 } })).not.toBe(normalizedParams({ position: { line: 1, character: 2 } }));
    expect(normalizedParams({ a: [2, 1] })).not.toBe(normalizedParams({ a: [1, 2] }));
  });

  it('differ by connection, method and state', () => {
    const base = { connection: 'c1:10', method: 'textDocument/hover', params: { a: 1 }, state: 'ws:3:0' };
    const k = queryKey(base);
    expect(queryKey({ ...base, connection: 'c2:10' })).not.toBe(k);
    expect(queryKey({ ...base, connection: 'c1:11' })).not.toBe(k);
    expect(queryKey({ ...base, method: 'textDocument/definition' })).not.toBe(k);
    expect(queryKey({ ...base, state: 'ws:4:0' })).not.toBe(k);
    expect(queryKey({ ...base, state: 'ws:3:1' })).not.toBe(k);
    expect(queryKey({ ...base })).toBe(k);
  });
});

describe('QueryCache', () => {
  it('stops serving a settled answer past its backstop age, and drops it', () => {
    let now = 1_000_000;
    const evicted: string[] = [];
    const c = new QueryCache({ maxEntries: 10, maxBytes: 1000, maxAgeMs: 60_000 }, (e) => evicted.push(e.key), () => now);
    c.add(entry('a', 10, now));
    now += 60_000;
    expect(c.get('a')?.value).toBe('a');
    now += 1;
    expect(c.get('a')).toBeUndefined();
    expect(c.has('a')).toBe(false);
    expect(evicted).toEqual(['a']);
  });

  it('evicts the least recently used entry past the entry limit, and reports it', () => {
    const evicted: string[] = [];
    const c = new QueryCache({ maxEntries: 2, maxBytes: 1000 }, (e) => evicted.push(e.key));
    c.add(entry('a'));
    c.add(entry('b'));
    c.get('a');
    c.add(entry('c'));
    expect(evicted).toEqual(['b']);
    expect(c.has('a') && c.has('c')).toBe(true);
  });

  it('keeps the bytes under the limit, and never keeps one answer larger than the limit', () => {
    const c = new QueryCache({ maxEntries: 100, maxBytes: 25 });
    c.add(entry('a'));
    c.add(entry('b'));
    c.add(entry('c'));
    expect(c.totalBytes).toBeLessThanOrEqual(25);
    expect(c.has('a')).toBe(false);
    const big: CacheEntry = { ...entry('big', 0), settled: false };
    c.add(big);
    c.settle(big, 'x', 30, 1);
    expect(c.has('big')).toBe(false);
    expect(c.totalBytes).toBeLessThanOrEqual(25);
  });

  it('removeWhere drops exactly the matching entries', () => {
    const c = new QueryCache({ maxEntries: 10, maxBytes: 1000 });
    c.add({ ...entry('a'), connection: 'c1' });
    c.add({ ...entry('b'), connection: 'c2' });
    c.removeWhere((e) => e.connection === 'c1');
    expect([c.has('a'), c.has('b'), c.size, c.totalBytes]).toEqual([false, true, 1, 10]);
  });
});
