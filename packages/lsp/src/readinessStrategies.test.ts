import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Disposable } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { ProgressTracker } from './progress.js';
import { Readiness } from './readiness.js';
import { SIGNAL_FALLBACK_MS } from './readinessContext.js';
import { attachReadinessStrategy } from './readinessStrategies.js';

/** The parts of a connection a progress-family strategy reads; `warnings` collects the logger's warnings. */
function progressServer() {
  const warnings: string[] = [];
  const conn = {
    rootDir: '/nonexistent',
    isAlive: true,
    readiness: new Readiness(),
    progress: new ProgressTracker(),
    logger: { debug: () => undefined, info: () => undefined, warn: (m: string) => warnings.push(m), error: () => undefined },
    server: { displayName: 'fake', readiness: 'progress' },
    // The canary of a server that shows no progress: never answered here.
    request: () => new Promise<never>(() => undefined),
  };
  return { conn, warnings, attach: (): Disposable => attachReadinessStrategy(conn as unknown as LspConnection) };
}

describe('the readiness fallback for a server that gives no signal', () => {
  let attached: Disposable | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    attached?.dispose();
    vi.useRealTimers();
  });

  it('never ends a wait its strategy began after the server was ready once', () => {
    const { conn, warnings, attach } = progressServer();
    attached = attach();
    conn.progress.handle('load', { kind: 'begin', title: 'Loading packages' });
    conn.progress.handle('load', { kind: 'end' });
    vi.advanceTimersByTime(1_000);
    expect(conn.readiness.state).toBe('ready');
    // As clangd's index freshness does while a changed file waits to be built (clangdIndexFreshness.ts).
    conn.readiness.indexing({ title: 'indexing changed files', message: '1 file(s) not built yet' });
    vi.advanceTimersByTime(SIGNAL_FALLBACK_MS);
    // On main: 'ready' at 180 s from the start, and the query waiting for the build was answered
    // from clangd's previous build of sqlite3.c, labelled complete (the field case after git checkout).
    expect(conn.readiness.state).toBe('indexing');
    expect(warnings).toEqual([]);
  });

  it('still calls a server ready that never signalled it', () => {
    const { conn, warnings, attach } = progressServer();
    attached = attach();
    conn.progress.handle('load', { kind: 'begin', title: 'Loading packages' });
    vi.advanceTimersByTime(SIGNAL_FALLBACK_MS - 1);
    expect(conn.readiness.state).toBe('indexing');
    vi.advanceTimersByTime(1);
    expect(conn.readiness.state).toBe('ready');
    expect(warnings).toEqual([`no readiness signal from fake after ${SIGNAL_FALLBACK_MS / 1000} s; treating it as ready`]);
  });
});
