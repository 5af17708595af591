import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { DisposableStore, pathToUri, toDisposable, type Disposable } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { findSeedFile } from './seedFile.js';

/** pyright logs this once it knows every source file; references sent after it are complete. */
const PYRIGHT_FOUND_FILES = /^(Found \d+ source files?|No source files found)/;
const TS_PROJECT_LOADING = /Initializing JS\/TS language features/;
/** When no signal comes at all, stop calling the server "indexing" after this long. */
const SIGNAL_FALLBACK_MS = 180_000;
const PROGRESS_GRACE_MS = 2_000;

/** Drives `conn.readiness` from the signals its kind of server gives. */
export function attachReadinessStrategy(conn: LspConnection): Disposable {
  const store = new DisposableStore();
  const { readiness, progress, logger } = conn;
  const timers: NodeJS.Timeout[] = [];
  const later = (ms: number, fn: () => void) => timers.push(setTimeout(fn, ms));
  store.add(toDisposable(() => timers.forEach(clearTimeout)));
  later(SIGNAL_FALLBACK_MS, () => {
    if (readiness.state !== 'ready') {
      logger.warn(`no readiness signal from ${conn.server.displayName} after ${SIGNAL_FALLBACK_MS / 1000} s; treating it as ready`);
      readiness.ready();
    }
  });
  // Whatever the strategy, show the server's own progress while it is not ready.
  store.add(
    progress.onProgress((e) => {
      if (readiness.state !== 'ready' && e.kind !== 'end') readiness.indexing(e.info);
    }),
  );

  switch (conn.server.readiness) {
    case 'pyright':
      readiness.indexing({ title: 'pyright: finding source files' });
      store.add(
        conn.onLogMessage((m) => {
          if (readiness.state === 'ready') return;
          if (PYRIGHT_FOUND_FILES.test(m.message)) readiness.ready();
          else readiness.indexing({ message: m.message.split('\n')[0] ?? '' });
        }),
      );
      break;

    case 'tsserver': {
      // tsserver loads a project only for an open file: open one so the main project loads now.
      // A request on that file is answered once the project has loaded (useSyntaxServer: never).
      const exts = Object.keys(conn.server.extensions);
      const seed = findSeedFile(conn.rootDir, exts.filter((e) => e.includes('ts')), 4) ?? findSeedFile(conn.rootDir, exts, 4);
      store.add(
        progress.onProgress((e) => {
          if (!TS_PROJECT_LOADING.test(e.title)) return;
          if (e.kind === 'begin') readiness.indexing(e.info);
          else if (e.kind === 'end' && seedLoaded) readiness.ready();
        }),
      );
      let seedLoaded = false;
      if (!seed) {
        seedLoaded = true;
        readiness.ready();
        break;
      }
      readiness.indexing({ title: 'Initializing JS/TS language features', message: 'loading the project' });
      const uri = pathToUri(seed);
      try {
        conn.documents.sync(uri, conn.server.extensions[extname(seed)] ?? 'typescript', readFileSync(seed, 'utf8'));
      } catch (err) {
        logger.warn(`could not open ${seed} to load the project: ${(err as Error).message}`);
      }
      conn.request('textDocument/documentSymbol', { textDocument: { uri } }, { timeoutMs: SIGNAL_FALLBACK_MS }).then(
        () => {
          seedLoaded = true;
          if (progress.activeCount() === 0) readiness.ready();
        },
        (err: Error) => {
          seedLoaded = true;
          logger.debug(`seed request failed: ${err.message}`);
          if (conn.isAlive) readiness.ready();
        },
      );
      break;
    }

    case 'progress': {
      readiness.indexing({ title: `${conn.server.displayName}: loading the workspace` });
      let sawProgress = false;
      let pendingReady: NodeJS.Timeout | undefined;
      store.add(toDisposable(() => clearTimeout(pendingReady)));
      store.add(
        progress.onProgress((e) => {
          sawProgress = true;
          clearTimeout(pendingReady);
          if (e.kind === 'end' && progress.activeCount() === 0) {
            pendingReady = setTimeout(() => progress.activeCount() === 0 && readiness.ready(), 300);
          }
        }),
      );
      later(PROGRESS_GRACE_MS, () => {
        if (!sawProgress && readiness.state !== 'ready') canary(conn).then(() => readiness.ready(), () => undefined);
      });
      break;
    }

    case 'canary':
      readiness.indexing({ title: `${conn.server.displayName}: starting` });
      canary(conn).then(() => readiness.ready(), () => undefined);
      break;
  }
  return store;
}

/** Any answer at all (even "method not found") shows the server is processing requests. */
async function canary(conn: LspConnection): Promise<void> {
  try {
    await conn.request('workspace/symbol', { query: '' }, { timeoutMs: SIGNAL_FALLBACK_MS });
  } catch (err) {
    if (!conn.isAlive) throw err;
  }
}
