import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LspConnection, Logger } from '@agent-lsp/lsp';
import { Prefetcher } from './prefetcher.js';

/**
 * The part of a connection the prefetcher uses, answering from a table: enough to check what is
 * sent, joined, cancelled and served (the real servers are exercised in test/prefetch).
 */
class TableConnection {
  /** The server's profile, as far as the prefetcher reads it. */
  server: { uncancellable?: string[] } = {};
  changeEpoch = 0;
  pid = 42;
  isAlive = true;
  readonly sent: { method: string; params: unknown; signal?: AbortSignal | undefined }[] = [];
  readonly docs = new Map<string, { version: number; internal: boolean; disk: object | undefined; text?: string }>();
  private crash: (() => void) | undefined;
  /** Requests wait for this before answering (set to hold them). */
  gate: Promise<void> = Promise.resolve();
  /** Requests of these methods wait for their promise. */
  readonly hold = new Map<string, Promise<void>>();
  answer: (method: string, params: unknown) => unknown = (method, params) => ({ method, params, epoch: this.changeEpoch });

  readonly documents = { get: (uri: string) => this.docs.get(uri), uris: () => [...this.docs].filter(([, d]) => !d.internal).map(([u]) => u) };
  supports(): boolean {
    return true;
  }
  supportsPullDiagnostics(): boolean {
    return true;
  }
  onCrash(fn: () => void) {
    this.crash = fn;
    return { dispose: () => undefined };
  }
  private refresh: (() => void) | undefined;
  onDiagnosticsRefresh(fn: () => void) {
    this.refresh = fn;
    return { dispose: () => undefined };
  }
  refreshNow(): void {
    this.refresh?.();
  }
  crashNow(): void {
    this.isAlive = false;
    this.crash?.();
  }
  async request(method: string, params: unknown, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    this.sent.push({ method, params, signal: options.signal });
    const answer = this.answer(method, params);
    await this.gate;
    await this.hold.get(method);
    if (options.signal?.aborted) throw new Error('cancelled');
    if (answer instanceof Error) throw answer;
    return answer;
  }
  open(uri: string, internal = false): void {
    this.docs.set(uri, { version: 1, internal, disk: {} });
  }
}

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => logger } as unknown as Logger;
const signal = new AbortController().signal;
const A = 'file:///w/a.py';
const B = 'file:///w/b.py';
const at = (uri: string, line: number) => ({ textDocument: { uri }, position: { line, character: 4 } });
const definitionTo = (uri: string, line: number) => [{ uri, range: { start: { line, character: 4 }, end: { line, character: 8 } } }];

/** Waits (polling) until `pred` holds: speculations reach the connection after a disk flush. */
async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!pred()) throw new Error('condition never held');
}

async function idle(p: Prefetcher): Promise<void> {
  for (let i = 0; i < 200 && p.snapshot().in_flight > 0; i++) await new Promise((r) => setTimeout(r, 5));
}

describe('Prefetcher', () => {
  let root: string;
  let conn: TableConnection;
  let prefetch: Prefetcher;
  const query = (method: string, params: unknown, s = signal) => prefetch.request<unknown>(conn as unknown as LspConnection, method, params, s);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'prefetch-unit-'));
    conn = new TableConnection();
    conn.open(A);
    conn.open(B);
    conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 7) : { method, params, epoch: conn.changeEpoch });
    prefetch = new Prefetcher({ enabled: true, logger, shared: (fn) => fn(), directWatching: () => true });
    prefetch.watch(root);
  });
  afterEach(() => {
    prefetch.dispose();
    rmSync(root, { recursive: true, force: true });
  });

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

  function holdMethod(method: string): () => void {
    let release!: () => void;
    conn.hold.set(method, new Promise<void>((r) => (release = r)));
    return release;
  }

  it('lets an agent call join a speculation on its way (partial hit)', async () => {
    const release = holdMethod('textDocument/hover');
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
    const releaseHover = holdMethod('textDocument/hover');
    const releaseRefs = holdMethod('textDocument/references');
    const releaseSymbols = holdMethod('textDocument/documentSymbol');
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
    const release = holdMethod('textDocument/hover');
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
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => holdMethod(m));
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
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => holdMethod(m));
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

  it('raises its threshold when its speculations keep going unused, and a rule whose own record is bad stops launching', async () => {
    conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    for (let i = 0; i < 20; i++) {
      await query('textDocument/definition', at(A, i));
      await idle(prefetch);
      // The agent does hover next, as predicted, but never where the rule guessed.
      await query('textDocument/hover', at(A, 100 + i));
    }
    const st = prefetch.snapshot();
    expect(st.threshold).toBeGreaterThan(0.5);
    expect(st.hits).toBe(0);
    // 20 predictions; after four unused ones only a probe in five still goes out.
    const hover = st.rules['definition→hover'];
    expect(hover?.predicted).toBe(20);
    expect(hover?.launched).toBeLessThan(10);
    expect(hover?.unused).toBeGreaterThanOrEqual(4);
  });

  it('a rule whose own record is good launches even when the threshold is above its confidence', async () => {
    conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    const high = new Prefetcher({ enabled: true, logger, shared: (fn) => fn(), threshold: 0.3, directWatching: () => true });
    high.watch(root);
    const c = conn as unknown as LspConnection;
    for (let i = 0; i < 5; i++) {
      await high.request(c, 'textDocument/definition', at(A, i), signal);
      await idle(high);
      await high.request(c, 'textDocument/hover', at(B, 10 + i), signal);
    }
    expect(high.snapshot().rules['definition→hover']).toMatchObject({ launched: 5, hits: 5 });
    high.dispose();
  });

  it('learns what agents of this workspace do next: a rule they never follow stops launching', async () => {
    conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    const launchedAfter = async (i: number) => {
      await query('textDocument/definition', at(A, i));
      await idle(prefetch);
      await query('textDocument/documentSymbol', { textDocument: { uri: A } });
      return prefetch.snapshot().rules['definition→hover']?.launched ?? 0;
    };
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) counts.push(await launchedAfter(i));
    // Launched while nothing was known; once definition → documentSymbol was seen five times, no more.
    expect(counts[0]).toBe(1);
    expect(counts[9]).toBe(counts[6]);
    expect(counts[9]).toBeLessThan(10);
  });

  it('stands aside while the workspace has more than one folder (its watcher sees only the root)', async () => {
    prefetch.watch(root, 2);
    await query('textDocument/hover', at(A, 1));
    await query('textDocument/hover', at(A, 1));
    expect(conn.sent.length).toBe(2);
    expect(prefetch.snapshot()).toMatchObject({ hits: 0, predictions: 0, cache_entries: 0 });
    prefetch.watch(root, 1);
    await query('textDocument/hover', at(A, 1));
    await query('textDocument/hover', at(A, 1));
    expect(prefetch.snapshot().hits).toBe(1);
  });

  it('never caches a method outside the allow-list', async () => {
    await query('textDocument/rename', { ...at(A, 1), newName: 'x' });
    await query('textDocument/rename', { ...at(A, 1), newName: 'x' });
    expect(conn.sent.length).toBe(2);
    expect(prefetch.snapshot()).toMatchObject({ hits: 0, misses: 0, cache_entries: 0 });
  });

  it('does not launch a prediction repeating a query the agent just asked', async () => {
    conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 7) : { method, params });
    await query('textDocument/references', { ...at(B, 7), context: { includeDeclaration: true } });
    await query('textDocument/definition', at(A, 1));
    await idle(prefetch);
    expect(conn.sent.filter((s) => s.method === 'textDocument/references').length).toBe(1);
    expect(conn.sent.some((s) => s.method === 'textDocument/hover')).toBe(true);
  });

  it('after a write, pulls the diagnostics of the documents it changed and of the open ones importing them; the agent is served from them', async () => {
    const C = 'file:///w/c.py';
    conn.docs.set(C, { version: 1, internal: false, disk: {}, text: 'from w.a import f\n' });
    (conn.docs.get(B) as { text?: string }).text = 'import os\n';
    const c = conn as unknown as LspConnection;
    const before = Prefetcher.versionsOf([c]);
    (conn.docs.get(A) as { version: number }).version = 2;
    prefetch.afterWrite([c], before);
    await until(() => conn.sent.length === 2);
    await idle(prefetch);
    expect(conn.sent.map((s) => s.params)).toEqual([{ textDocument: { uri: A } }, { textDocument: { uri: C } }]);
    expect(await query('textDocument/diagnostic', { textDocument: { uri: A } })).toMatchObject({ method: 'textDocument/diagnostic' });
    expect(prefetch.snapshot().rules).toMatchObject({ 'edit→diagnostics': { hits: 1 }, 'edit→importer diagnostics': { launched: 1 } });
  });

  it('unused guesses of a rule with a good record do not raise the threshold for the others', async () => {
    conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 10 + (params as { position: { line: number } }).position.line) : { method, params });
    // definition→hover hits five times, then goes unused four times: 5/9, still a good record.
    for (let i = 0; i < 5; i++) {
      await query('textDocument/definition', at(A, i));
      await idle(prefetch);
      await query('textDocument/hover', at(B, 10 + i));
    }
    const proven = prefetch.snapshot();
    expect(proven.rules['definition→hover']?.hits).toBe(5);
    for (let i = 0; i < 4; i++) {
      await query('textDocument/definition', at(A, 20 + i));
      await idle(prefetch);
      for (let k = 0; k < 3; k++) await query('workspace/symbol', { query: `elsewhere${i}-${k}` });
    }
    const after = prefetch.snapshot();
    expect(after.rules['definition→hover']?.unused).toBeGreaterThanOrEqual(4);
    // At most the one step the closed references rule's probe calls for (four more with every unused hover counted).
    expect(after.threshold).toBeLessThanOrEqual(proven.threshold + 0.05);
  });

  it('the guesses from the latest answer take the next free slot before older ones still waiting', async () => {
    const C = 'file:///w/c.py';
    conn.answer = (method, params) =>
      method === 'textDocument/definition'
        ? (params as { textDocument: { uri: string } }).textDocument.uri === A ? [...definitionTo(B, 7), ...definitionTo(A, 3)] : definitionTo(C, 5)
        : { method, params };
    // Asked once while c.py is not open: nothing at C is speculated, the answer is cached.
    await query('textDocument/definition', at(B, 2));
    await idle(prefetch);
    conn.open(C);
    const releases = ['textDocument/hover', 'textDocument/references', 'textDocument/documentSymbol'].map((m) => holdMethod(m));
    const before = conn.sent.length;
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.length === before + 4);
    // Three in flight, the references at A:3 and the outline of A waiting. A hit adds the guesses at C.
    await query('textDocument/definition', at(B, 2));
    expect(prefetch.snapshot().hits).toBe(1);
    for (const release of releases) release();
    await idle(prefetch);
    const next = conn.sent[before + 4];
    expect(next?.method).toBe('textDocument/hover');
    expect(JSON.stringify(next?.params)).toContain(C);
  });

  it('gives up a speculation still unanswered after the agent has moved on several queries (a busy server)', async () => {
    const release = holdMethod('textDocument/references');
    await query('textDocument/definition', at(A, 1));
    await until(() => conn.sent.some((s) => s.method === 'textDocument/references'));
    const refs = conn.sent.find((s) => s.method === 'textDocument/references');
    // The agent's next queries are hits (its own repeated answer): nothing cancels on a miss.
    for (let i = 0; i < 3; i++) await query('textDocument/definition', at(A, 1));
    expect(refs?.signal?.aborted).toBe(false);
    await query('textDocument/definition', at(A, 1));
    expect(refs?.signal?.aborted).toBe(true);
    release();
    await idle(prefetch);
    expect(prefetch.snapshot().rules['definition→references']).toMatchObject({ launched: 1, hits: 0, unused: 1 });
  });
});
