import { describe, expect, it } from 'vitest';
import type { LspConnection } from '@agent-lsp/lsp';
import { Prefetcher } from './prefetcher.js';
import { A, at, B, definitionTo, idle, logger, usePrefetchBench, signal, until } from '../../../../test/helpers/prefetchTable.js';

describe('Prefetcher: how rules and the threshold decide what launches', () => {
  const bench = usePrefetchBench();
  const { query } = bench;

  it('raises its threshold when its speculations keep going unused, and a rule whose own record is bad stops launching', async () => {
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    for (let i = 0; i < 20; i++) {
      await query('textDocument/definition', at(A, i));
      await idle(bench.prefetch);
      // The agent does hover next, as predicted, but never where the rule guessed.
      await query('textDocument/hover', at(A, 100 + i));
    }
    const st = bench.prefetch.snapshot();
    expect(st.threshold).toBeGreaterThan(0.5);
    expect(st.hits).toBe(0);
    // 20 predictions; after four unused ones only a probe in five still goes out.
    const hover = st.rules['definition→hover'];
    expect(hover?.predicted).toBe(20);
    expect(hover?.launched).toBeLessThan(10);
    expect(hover?.unused).toBeGreaterThanOrEqual(4);
  });

  it('a rule whose own record is good launches even when the threshold is above its confidence', async () => {
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    const high = new Prefetcher({ enabled: true, logger, shared: (fn) => fn(), threshold: 0.3, directWatching: () => true });
    high.watch(bench.root);
    const c = bench.conn as unknown as LspConnection;
    for (let i = 0; i < 5; i++) {
      await high.request(c, 'textDocument/definition', at(A, i), signal);
      await idle(high);
      await high.request(c, 'textDocument/hover', at(B, 10 + i), signal);
    }
    expect(high.snapshot().rules['definition→hover']).toMatchObject({ launched: 5, hits: 5 });
    high.dispose();
  });

  it('learns what agents of this workspace do next: a rule they never follow stops launching', async () => {
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    const launchedAfter = async (i: number) => {
      await query('textDocument/definition', at(A, i));
      await idle(bench.prefetch);
      await query('textDocument/documentSymbol', { textDocument: { uri: A } });
      return bench.prefetch.snapshot().rules['definition→hover']?.launched ?? 0;
    };
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) counts.push(await launchedAfter(i));
    // Launched while nothing was known; once definition → documentSymbol was seen five times, no more.
    expect(counts[0]).toBe(1);
    expect(counts[9]).toBe(counts[6]);
    expect(counts[9]).toBeLessThan(10);
  });

  it('stands aside while the workspace has more than one folder (its watcher sees only the bench.root)', async () => {
    bench.prefetch.watch(bench.root, 2);
    await query('textDocument/hover', at(A, 1));
    await query('textDocument/hover', at(A, 1));
    expect(bench.conn.sent.length).toBe(2);
    expect(bench.prefetch.snapshot()).toMatchObject({ hits: 0, predictions: 0, cache_entries: 0 });
    bench.prefetch.watch(bench.root, 1);
    await query('textDocument/hover', at(A, 1));
    await query('textDocument/hover', at(A, 1));
    expect(bench.prefetch.snapshot().hits).toBe(1);
  });

  it('never caches a method outside the allow-list', async () => {
    await query('textDocument/rename', { ...at(A, 1), newName: 'x' });
    await query('textDocument/rename', { ...at(A, 1), newName: 'x' });
    expect(bench.conn.sent.length).toBe(2);
    expect(bench.prefetch.snapshot()).toMatchObject({ hits: 0, misses: 0, cache_entries: 0 });
  });

  it('does not launch a prediction repeating a query the agent just asked', async () => {
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 7) : { method, params });
    await query('textDocument/references', { ...at(B, 7), context: { includeDeclaration: true } });
    await query('textDocument/definition', at(A, 1));
    await idle(bench.prefetch);
    expect(bench.conn.sent.filter((s) => s.method === 'textDocument/references').length).toBe(1);
    expect(bench.conn.sent.some((s) => s.method === 'textDocument/hover')).toBe(true);
  });

  it('after a write, pulls the diagnostics of the documents it changed and of the open ones importing them; the agent is served from them', async () => {
    const C = 'file:///w/c.py';
    bench.conn.docs.set(C, { version: 1, internal: false, disk: {}, text: 'from w.a import f\n' });
    (bench.conn.docs.get(B) as { text?: string }).text = 'import os\n';
    const c = bench.conn as unknown as LspConnection;
    const before = Prefetcher.versionsOf([c]);
    (bench.conn.docs.get(A) as { version: number }).version = 2;
    bench.prefetch.afterWrite([c], before);
    await until(() => bench.conn.sent.length === 2);
    await idle(bench.prefetch);
    expect(bench.conn.sent.map((s) => s.params)).toEqual([{ textDocument: { uri: A } }, { textDocument: { uri: C } }]);
    expect(await query('textDocument/diagnostic', { textDocument: { uri: A } })).toMatchObject({ method: 'textDocument/diagnostic' });
    expect(bench.prefetch.snapshot().rules).toMatchObject({ 'edit→diagnostics': { hits: 1 }, 'edit→importer diagnostics': { launched: 1 } });
  });

  it('unused guesses of a rule with a good record do not raise the threshold for the others', async () => {
    bench.conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    // definition→hover hits five times, then goes unused four times: 5/9, still a good record.
    for (let i = 0; i < 5; i++) {
      await query('textDocument/definition', at(A, i));
      await idle(bench.prefetch);
      await query('textDocument/hover', at(B, 10 + i));
    }
    const proven = bench.prefetch.snapshot();
    expect(proven.rules['definition→hover']?.hits).toBe(5);
    for (let i = 0; i < 4; i++) {
      await query('textDocument/definition', at(A, 20 + i));
      await idle(bench.prefetch);
      for (let k = 0; k < 3; k++) await query('workspace/symbol', { query: `elsewhere${i}-${k}` });
    }
    const after = bench.prefetch.snapshot();
    expect(after.rules['definition→hover']?.unused).toBeGreaterThanOrEqual(4);
    // At most the one step the closed references rule's probe calls for (four more with every unused hover counted).
    expect(after.threshold).toBeLessThanOrEqual(proven.threshold + 0.05);
  });

  it('the guesses from the latest answer take the next free slot before older ones still waiting', async () => {
    const C = 'file:///w/c.py';
    bench.conn.answer = (method, params) =>
      method === 'textDocument/definition'
        ? (params as { textDocument: { uri: string } }).textDocument.uri === A ? [...definitionTo(B, 7), ...definitionTo(A, 3)] : definitionTo(C, 5)
        : { method, params };
    // Asked once while c.py is not open: nothing at C is speculated, the answer is cached.
    await query('textDocument/definition', at(B, 2));
    await idle(bench.prefetch);
    bench.conn.open(C);
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => bench.conn.holdMethod(m));
    const before = bench.conn.sent.length;
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.length === before + 4);
    // Three in flight, the references at A:3 and the outline of A waiting. A hit adds the guesses at C.
    await query('textDocument/definition', at(B, 2));
    expect(bench.prefetch.snapshot().hits).toBe(1);
    for (const release of releases) release();
    await idle(bench.prefetch);
    const next = bench.conn.sent[before + 4];
    expect(next?.method).toBe('textDocument/hover');
    expect(JSON.stringify(next?.params)).toContain(C);
  });

  it('gives up a speculation still unanswered after the agent has moved on several queries (a busy server)', async () => {
    const release = bench.conn.holdMethod('textDocument/references');
    await query('textDocument/definition', at(A, 1));
    await until(() => bench.conn.sent.some((s) => s.method === 'textDocument/references'));
    const refs = bench.conn.sent.find((s) => s.method === 'textDocument/references');
    // The agent's next queries are hits (its own repeated answer): nothing cancels on a miss.
    for (let i = 0; i < 3; i++) await query('textDocument/definition', at(A, 1));
    expect(refs?.signal?.aborted).toBe(false);
    await query('textDocument/definition', at(A, 1));
    expect(refs?.signal?.aborted).toBe(true);
    release();
    await idle(bench.prefetch);
    expect(bench.prefetch.snapshot().rules['definition→references']).toMatchObject({ launched: 1, hits: 0, unused: 1 });
  });
});
