import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DisposableStore, Emitter, pathToUri } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { DiagnosticsCollector } from './diagnostics.js';
import { DocumentStore } from './documents.js';
import { buildGiveUpMs, GIVE_UP_MS, trackIndexFreshness } from './clangdIndexFreshness.js';
import { Readiness } from './readiness.js';

const URI = 'file:///w/point.c';
const DISK_A = { hash: 'a', size: 6, mtimeNs: 1n, ino: 1n };
const DISK_B = { ...DISK_A, hash: 'b', mtimeNs: 2n };

/** The parts of a clangd connection the tracker reads: a real document store, diagnostics collector and readiness. */
function clangdLike(unindexed?: string) {
  const sent: string[] = [];
  const documents = new DocumentStore({
    didOpen: (p) => void sent.push(`open ${p.textDocument.version}`),
    didChange: (p) => void sent.push(`change ${p.textDocument.version}`),
    didClose: () => void sent.push('close'),
  });
  const diagnostics = new DiagnosticsCollector({ documents, supportsPullDiagnostics: () => false, exactDiagnostics: undefined, request: () => new Promise(() => undefined) });
  const readiness = new Readiness();
  const warnings: string[] = [];
  const watchedFiles = new Emitter<unknown>();
  const conn = {
    documents,
    diagnostics,
    readiness,
    server: { displayName: 'clangd', extensions: { '.c': 'c' } },
    logger: { debug: () => undefined, info: () => undefined, warn: (m: string) => warnings.push(m), error: () => undefined },
    onWatchedFilesSent: watchedFiles.on.bind(watchedFiles),
    request: () => Promise.resolve(null),
  };
  const store = new DisposableStore();
  const freshness = trackIndexFreshness({ conn: conn as unknown as LspConnection, store, later: () => undefined, signalComing: () => undefined }, () => readiness.ready(freshness.partial), unindexed);
  /** clangd built `version` of point.c and published for it. */
  const publish = (version: number): void => diagnostics.onPublish({ uri: URI, version, diagnostics: [] });
  return { documents, diagnostics, readiness, freshness, publish, warnings, store, sent, watchedFiles };
}

describe('clangd index freshness', () => {
  let server: ReturnType<typeof clangdLike>;
  beforeEach(() => {
    vi.useFakeTimers();
    server = clangdLike();
    server.documents.sync(URI, 'c', 'int a;', { disk: DISK_A });
    server.publish(1);
    server.readiness.ready();
  });
  afterEach(() => {
    server.store.dispose();
    vi.useRealTimers();
  });

  it('waits for the build of a changed text; changed back to the one clangd built last, opens it afresh and waits for that build', async () => {
    server.documents.sync(URI, 'c', 'int b;', { disk: DISK_B });
    expect(server.readiness.state).toBe('indexing');
    // Changed back before clangd was seen to build the text in between: it skipped it (and would
    // publish nothing more: the wait lasted until the give-up, 300 s) or is building it (its index
    // holds 'int b;' meanwhile): either way, built afresh.
    server.documents.sync(URI, 'c', 'int a;', { disk: DISK_A });
    await Promise.resolve();
    // Opened again at 5: a reopen skips the version after the close (documents.ts).
    expect(server.sent.slice(-2)).toEqual(['close', 'open 5']);
    expect(server.readiness.state).toBe('indexing');
    server.publish(3);
    expect(server.readiness.state).toBe('indexing');
    server.publish(5);
    expect(server.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
  });

  it('is ready but partial, naming the file, once it gives up on a text clangd did not build; whole again when clangd builds it', () => {
    server.documents.sync(URI, 'c', 'int b;', { disk: DISK_B });
    expect(server.readiness.state).toBe('indexing');
    vi.advanceTimersByTime(GIVE_UP_MS * 1.25);
    const snap = server.readiness.snapshot();
    expect(snap.ready).toBe(true);
    expect(snap.partial).toMatch(/clangd did not build 1 changed file\(s\) within 300 s \(\/w\/point\.c\): its index may still hold their previous text/);
    expect(server.warnings.join('\n')).toContain('has not built file:///w/point.c');
    server.publish(2);
    expect(server.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
  });

  it('holds a closed file read while it was gone (git checkout unlinks and writes it) as empty, and once built holds it again with the text that came back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-freshness-'));
    try {
      const path = join(dir, 'sqlite3.c');
      const uri = pathToUri(path);
      server.watchedFiles.fire([{ uri, type: 2 }]);
      expect(server.documents.get(uri)?.text).toBe('');
      expect(server.readiness.state).toBe('indexing');
      writeFileSync(path, 'int sqlite3_open;\n');
      // clangd built the empty text (its index: nothing in the file), then it is put back as it is now.
      server.diagnostics.onPublish({ uri, version: server.documents.get(uri)!.version, diagnostics: [] });
      expect(server.documents.get(uri)?.text).toBe('int sqlite3_open;\n');
      expect(server.readiness.state).toBe('indexing');
      server.diagnostics.onPublish({ uri, version: server.documents.get(uri)!.version, diagnostics: [] });
      expect(server.documents.get(uri)).toBeUndefined();
      expect(server.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      }
    });

  it('says what the index misses whatever clangd builds (files it was never given) in every partial, with what it gave up on', () => {
    const missing = 'no compile_commands.json: files left out';
    const partly = clangdLike(missing);
    try {
      partly.documents.sync(URI, 'c', 'int a;', { disk: DISK_A });
      partly.publish(1);
      expect(partly.freshness.partial).toBe(missing);
      partly.documents.sync(URI, 'c', 'int b;', { disk: DISK_B });
      vi.advanceTimersByTime(GIVE_UP_MS * 1.25);
      expect(partly.readiness.snapshot().partial).toMatch(/^no compile_commands\.json: files left out clangd did not build 1 changed file/);
      partly.publish(2);
      expect(partly.readiness.snapshot().partial).toBe(missing);
    } finally {
      partly.store.dispose();
    }
  });

  it('gives up after AGENT_LSP_BUILD_GIVE_UP_MS where set to a positive number of ms', () => {
    expect(buildGiveUpMs({})).toBe(GIVE_UP_MS);
    expect(buildGiveUpMs({ AGENT_LSP_BUILD_GIVE_UP_MS: '25' })).toBe(25);
    expect(buildGiveUpMs({ AGENT_LSP_BUILD_GIVE_UP_MS: 'soon' })).toBe(GIVE_UP_MS);
    expect(buildGiveUpMs({ AGENT_LSP_BUILD_GIVE_UP_MS: '0' })).toBe(GIVE_UP_MS);
  });
});
