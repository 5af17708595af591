import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LspConnection } from '@agent-lsp/lsp';
import { Prefetcher } from './prefetcher.js';
import { A, at, B, definitionTo, disposeBench, idle, logger, prefetchBench, signal, until, type PrefetchBench } from '../../../../test/helpers/prefetchTable.js';

describe('Prefetcher', () => {
  let bench: PrefetchBench;
  let root: string;
  let conn: PrefetchBench['conn'];
  let prefetch: Prefetcher;
  const query = (method: string, params: unknown, s = signal) => prefetch.request<unknown>(conn as unknown as LspConnection, method, params, s);

  beforeEach(() => {
    bench = prefetchBench();
    ({ root, conn, prefetch } = bench);
  });
  afterEach(() => disposeBench(bench));

  it('speculates the hover at a definition target and serves the agent from it, sending nothing more', async () => {
    await query('textDocument/definition', at(A, 1));
    await idle(prefetch);
    const hoversAtTarget = () => conn.sent.filter((s) => s.method === 'textDocument/hover' && JSON.stringify(s.params) === JSON.stringify(at(B, 7))).length;
    expect(hoversAtTarget()).toBe(1);
    const hover = await query('textDocument/hover', at(B, 7));
    expect(hover).toEqual({ method: 'textDocument/hover', params: at(B, 7), epoch: 0 });
    // Served from the speculation: the hover was not asked again (what the hit predicts may be).
    expect(hoversAtTarget()).toBe(1);
    expect(prefetch.snapshot()).toMatchObject({ hits: 1, misses: 1, rules: { 'definition→hover': { hits: 1 } } });
  });

  it('never serves an answer across a change of the workspace epoch', async () => {
    await query('textDocument/definition', at(A, 1));
    await idle(prefetch);
    conn.changeEpoch++;
    const hover = await query('textDocument/hover', at(B, 7));
    expect(hover).toMatchObject({ epoch: 1 });
    expect(prefetch.snapshot()).toMatchObject({ hits: 0, misses: 2 });
  });

  it('lets an agent call join a speculation on its way (partial hit)', async () => {
    const release = conn.holdMethod('textDocument/hover');
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.some((s) => s.method === 'textDocument/hover'));
    expect(prefetch.snapshot().in_flight).toBeGreaterThan(0);
    // Released only after the agent's call has looked the query up (it found it on its way).
    setTimeout(release, 50);
    const hover = query('textDocument/hover', at(B, 7));
    expect(await hover).toMatchObject({ method: 'textDocument/hover', params: at(B, 7) });
    expect(conn.sent.filter((s) => s.method === 'textDocument/hover').length).toBe(1);
    // A partial hit, unless this machine took longer than the hold to look it up (then a hit).
    const st = prefetch.snapshot();
    expect([st.partial_hits + st.hits, st.misses]).toEqual([1, 1]);
  });

  it('cancels speculations nobody joined when the agent asks for something else, and drops them silently', async () => {
    const releaseHover = conn.holdMethod('textDocument/hover');
    const releaseRefs = conn.holdMethod('textDocument/references');
    const releaseSymbols = conn.holdMethod('textDocument/documentSymbol');
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.filter((s) => s.method !== 'textDocument/definition').length === 3);
    const specs = conn.sent.filter((s) => s.method !== 'textDocument/definition');
    expect(specs.map((s) => s.method).sort()).toEqual(['textDocument/documentSymbol', 'textDocument/hover', 'textDocument/references']);
    await query('workspace/symbol', { query: 'elsewhere' });
    expect(specs.every((s) => s.signal?.aborted === true)).toBe(true);
    releaseHover();
    releaseRefs();
    releaseSymbols();
    await idle(prefetch);
    expect(prefetch.snapshot()).toMatchObject({ dropped: 3, hits: 0 });
    expect(await query('textDocument/hover', at(B, 7))).toMatchObject({ method: 'textDocument/hover' });
  });

  it('never speculates a request the server cannot be told to drop (pyright\'s references)', async () => {
    conn.server = { uncancellable: ['textDocument/references'] };
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.filter((s) => s.method !== 'textDocument/definition').length === 2);
    await idle(prefetch);
    expect(conn.sent.map((s) => s.method).sort()).toEqual(['textDocument/definition', 'textDocument/documentSymbol', 'textDocument/hover']);
    // The agent's own references are asked and answered as ever.
    expect(await query('textDocument/references', at(B, 7))).toMatchObject({ method: 'textDocument/references' });
  });

  it('cancels its speculations when a writing or exclusive agent call is about to run', async () => {
    const release = conn.holdMethod('textDocument/hover');
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.some((s) => s.method === 'textDocument/hover'));
    const hover = conn.sent.find((s) => s.method === 'textDocument/hover');
    expect(hover?.signal?.aborted).toBe(false);
    prefetch.yieldToAgent();
    expect(hover?.signal?.aborted).toBe(true);
    release();
  });

  it('never opens a document: no speculation names one the agent has not opened, or one agent-lsp opened for itself', async () => {
    conn.docs.delete(B);
    const namingB = () => conn.sent.filter((s) => JSON.stringify(s.params).includes(B));
    await query('textDocument/definition', at(A, 1));
    await idle(prefetch);
    expect(namingB()).toEqual([]);
    conn.open(B, true);
    await query('textDocument/definition', at(A, 2));
    await idle(prefetch);
    expect(namingB()).toEqual([]);
    // Only the outline of A, which the agent opened, was speculated.
    expect(conn.sent.filter((s) => s.method !== 'textDocument/definition').map((s) => s.method)).toEqual(['textDocument/documentSymbol']);
  });

  it('keeps at most three speculations in flight, the likeliest first; the others wait for a slot', async () => {
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => conn.holdMethod(m));
    conn.answer = (method, params) => (method === 'textDocument/definition' ? [...definitionTo(B, 7), ...definitionTo(A, 3)] : { method, params });
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.length === 4);
    await new Promise((r) => setTimeout(r, 50));
    expect(conn.sent.length).toBe(4);
    // Both hovers (0.7) before the references (0.55); the outline (0.5) and the other references wait.
    expect(conn.sent.slice(1).map((s) => s.method)).toEqual(['textDocument/hover', 'textDocument/hover', 'textDocument/references']);
    expect(prefetch.snapshot()).toMatchObject({ predictions: 5, in_flight: 5, launched: 3 });
    for (const release of releases) release();
    await idle(prefetch);
    expect(prefetch.snapshot().launched).toBe(5);
  });

  it('drops the waiting speculations when the agent goes elsewhere', async () => {
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => conn.holdMethod(m));
    conn.answer = (method, params) => (method === 'textDocument/definition' ? [...definitionTo(B, 7), ...definitionTo(A, 3)] : { method, params });
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.length === 4);
    await query('workspace/symbol', { query: 'elsewhere' });
    for (const release of releases) release();
    await idle(prefetch);
    expect(prefetch.snapshot().launched).toBe(3);
  });

  it('forgets the answers of a server that crashed', async () => {
    await query('textDocument/definition', at(A, 1));
    await idle(prefetch);
    expect(prefetch.snapshot().cache_entries).toBeGreaterThan(0);
    conn.crashNow();
    expect(prefetch.snapshot().cache_entries).toBe(0);
  });

  it('a failed speculation never reaches the agent; its own call asks again', async () => {
    conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 7) : method === 'textDocument/hover' && conn.sent.length < 3 ? new Error('server busy') : { method, params });
    await query('textDocument/definition', at(A, 1));
    await idle(prefetch);
    expect(await query('textDocument/hover', at(B, 7))).toEqual({ method: 'textDocument/hover', params: at(B, 7) });
  });

  it('with prefetch off, sends every query and predicts nothing', async () => {
    const off = new Prefetcher({ enabled: false, logger, shared: (fn) => fn(), directWatching: () => true });
    off.watch(root);
    const c = conn as unknown as LspConnection;
    await off.request(c, 'textDocument/definition', at(A, 1), signal);
    await off.request(c, 'textDocument/definition', at(A, 1), signal);
    expect(conn.sent.map((s) => s.method)).toEqual(['textDocument/definition', 'textDocument/definition']);
    expect(off.snapshot()).toMatchObject({ enabled: false, predictions: 0, hits: 0 });
    off.dispose();
  });
});
