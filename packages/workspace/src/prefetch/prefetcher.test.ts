import { describe, expect, it } from 'vitest';
import type { LspConnection, Readiness } from '@agent-lsp/lsp';
import { Prefetcher } from './prefetcher.js';
import { A, at, B, definitionTo, idle, logger, usePrefetchBench, signal, until } from '../../../../test/helpers/prefetchTable.js';

describe('Prefetcher', () => {
  const bench = usePrefetchBench();
  const { query } = bench;

  it('speculates the hover at a definition target and serves the agent from it, sending nothing more', async () => {
    await query('textDocument/definition', at(A, 1));
    await idle(bench.prefetch);
    const hoversAtTarget = () => bench.conn.sent.filter((s) => s.method === 'textDocument/hover' && JSON.stringify(s.params) === JSON.stringify(at(B, 7))).length;
    expect(hoversAtTarget()).toBe(1);
    const hover = await query('textDocument/hover', at(B, 7));
    expect(hover).toEqual({ method: 'textDocument/hover', params: at(B, 7), epoch: 0 });
    // Served from the speculation: the hover was not asked again (what the hit predicts may be).
    expect(hoversAtTarget()).toBe(1);
    expect(bench.prefetch.snapshot()).toMatchObject({ hits: 1, misses: 1, rules: { 'definition→hover': { hits: 1 } } });
  });

  it('never serves an answer across a change of the workspace epoch', async () => {
    await query('textDocument/definition', at(A, 1));
    await idle(bench.prefetch);
    bench.conn.changeEpoch++;
    const hover = await query('textDocument/hover', at(B, 7));
    expect(hover).toMatchObject({ epoch: 1 });
    expect(bench.prefetch.snapshot()).toMatchObject({ hits: 0, misses: 2 });
  });

  // Neither case lets an answer computed then serve the agent later: the epoch does not move when
  // clangd ends the build of a file the section's door resynced (not ready meanwhile: it answers
  // from its previous build), nor when it builds a file it had given up on (ready on a partial
  // index meanwhile: the index may hold the file's previous text).
  it.each([
    ['not ready', (r: Readiness) => r.indexing({ title: 'indexing changed files' })],
    ['ready on a partial index', (r: Readiness) => r.ready('clangd did not build 1 changed file(s)')],
  ])('neither speculates nor keeps an answer while the server is %s', async (_, meanwhile) => {
    meanwhile(bench.conn.readiness);
    await query('textDocument/definition', at(A, 1));
    await idle(bench.prefetch);
    expect(bench.conn.sent.map((s) => s.method)).toEqual(['textDocument/definition']);
    bench.conn.readiness.ready();
    await query('textDocument/definition', at(A, 1));
    expect(bench.conn.sent.filter((s) => s.method === 'textDocument/definition').length).toBe(2);
    expect(bench.prefetch.snapshot()).toMatchObject({ hits: 0 });
  });

  it('lets an agent call join a speculation on its way (partial hit)', async () => {
    const release = bench.conn.holdMethod('textDocument/hover');
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.some((s) => s.method === 'textDocument/hover'));
    expect(bench.prefetch.snapshot().in_flight).toBeGreaterThan(0);
    // Released only after the agent's call has looked the query up (it found it on its way).
    setTimeout(release, 50);
    const hover = query('textDocument/hover', at(B, 7));
    expect(await hover).toMatchObject({ method: 'textDocument/hover', params: at(B, 7) });
    expect(bench.conn.sent.filter((s) => s.method === 'textDocument/hover').length).toBe(1);
    // A partial hit, unless this machine took longer than the hold to look it up (then a hit).
    const st = bench.prefetch.snapshot();
    expect([st.partial_hits + st.hits, st.misses]).toEqual([1, 1]);
  });

  it('cancels speculations nobody joined when the agent asks for something else, and drops them silently', async () => {
    const releaseHover = bench.conn.holdMethod('textDocument/hover');
    const releaseRefs = bench.conn.holdMethod('textDocument/references');
    const releaseSymbols = bench.conn.holdMethod('textDocument/documentSymbol');
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.filter((s) => s.method !== 'textDocument/definition').length === 3);
    const specs = bench.conn.sent.filter((s) => s.method !== 'textDocument/definition');
    expect(specs.map((s) => s.method).sort()).toEqual(['textDocument/documentSymbol', 'textDocument/hover', 'textDocument/references']);
    await query('workspace/symbol', { query: 'elsewhere' });
    expect(specs.every((s) => s.signal?.aborted === true)).toBe(true);
    releaseHover();
    releaseRefs();
    releaseSymbols();
    await idle(bench.prefetch);
    expect(bench.prefetch.snapshot()).toMatchObject({ dropped: 3, hits: 0 });
    expect(await query('textDocument/hover', at(B, 7))).toMatchObject({ method: 'textDocument/hover' });
  });

  it('never speculates a request the server cannot be told to drop (pyright\'s references)', async () => {
    bench.conn.server = { uncancellable: ['textDocument/references'] };
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.filter((s) => s.method !== 'textDocument/definition').length === 2);
    await idle(bench.prefetch);
    expect(bench.conn.sent.map((s) => s.method).sort()).toEqual(['textDocument/definition', 'textDocument/documentSymbol', 'textDocument/hover']);
    // The agent's own references are asked and answered as ever.
    expect(await query('textDocument/references', at(B, 7))).toMatchObject({ method: 'textDocument/references' });
  });

  it('cancels its speculations when a writing or exclusive agent call is about to run', async () => {
    const release = bench.conn.holdMethod('textDocument/hover');
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.some((s) => s.method === 'textDocument/hover'));
    const hover = bench.conn.sent.find((s) => s.method === 'textDocument/hover');
    expect(hover?.signal?.aborted).toBe(false);
    bench.prefetch.yieldToAgent();
    expect(hover?.signal?.aborted).toBe(true);
    release();
  });

  it('never opens a document: no speculation names one the agent has not opened, or one agent-lsp opened for itself', async () => {
    bench.conn.docs.delete(B);
    const namingB = () => bench.conn.sent.filter((s) => JSON.stringify(s.params).includes(B));
    await query('textDocument/definition', at(A, 1));
    await idle(bench.prefetch);
    expect(namingB()).toEqual([]);
    bench.conn.open(B, true);
    await query('textDocument/definition', at(A, 2));
    await idle(bench.prefetch);
    expect(namingB()).toEqual([]);
    // Only the outline of A, which the agent opened, was speculated.
    expect(bench.conn.sent.filter((s) => s.method !== 'textDocument/definition').map((s) => s.method)).toEqual(['textDocument/documentSymbol']);
  });

  it('keeps at most three speculations in flight, the likeliest first; the others wait for a slot', async () => {
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => bench.conn.holdMethod(m));
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? [...definitionTo(B, 7), ...definitionTo(A, 3)] : { method, params });
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.length === 4);
    await new Promise((r) => setTimeout(r, 50));
    expect(bench.conn.sent.length).toBe(4);
    // Both hovers (0.7) before the references (0.55); the outline (0.5) and the other references wait.
    expect(bench.conn.sent.slice(1).map((s) => s.method)).toEqual(['textDocument/hover', 'textDocument/hover', 'textDocument/references']);
    expect(bench.prefetch.snapshot()).toMatchObject({ predictions: 5, in_flight: 5, launched: 3 });
    for (const release of releases) release();
    await idle(bench.prefetch);
    expect(bench.prefetch.snapshot().launched).toBe(5);
  });

  it('drops the waiting speculations when the agent goes elsewhere', async () => {
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => bench.conn.holdMethod(m));
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? [...definitionTo(B, 7), ...definitionTo(A, 3)] : { method, params });
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.length === 4);
    await query('workspace/symbol', { query: 'elsewhere' });
    for (const release of releases) release();
    await idle(bench.prefetch);
    expect(bench.prefetch.snapshot().launched).toBe(3);
  });

  it('forgets the answers of a server that crashed', async () => {
    await query('textDocument/definition', at(A, 1));
    await idle(bench.prefetch);
    expect(bench.prefetch.snapshot().cache_entries).toBeGreaterThan(0);
    bench.conn.crashNow();
    expect(bench.prefetch.snapshot().cache_entries).toBe(0);
  });

  it('a failed speculation never reaches the agent; its own call asks again', async () => {
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 7) : method === 'textDocument/hover' && bench.conn.sent.length < 3 ? new Error('server busy') : { method, params });
    await query('textDocument/definition', at(A, 1));
    await idle(bench.prefetch);
    expect(await query('textDocument/hover', at(B, 7))).toEqual({ method: 'textDocument/hover', params: at(B, 7) });
  });

  it('with bench.prefetch off, sends every query and predicts nothing', async () => {
    const off = new Prefetcher({ enabled: false, logger, shared: (fn) => fn(), directWatching: () => true });
    off.watch(bench.root);
    const c = bench.conn as unknown as LspConnection;
    await off.request(c, 'textDocument/definition', at(A, 1), signal);
    await off.request(c, 'textDocument/definition', at(A, 1), signal);
    expect(bench.conn.sent.map((s) => s.method)).toEqual(['textDocument/definition', 'textDocument/definition']);
    expect(off.snapshot()).toMatchObject({ enabled: false, predictions: 0, hits: 0 });
    off.dispose();
  });
});
