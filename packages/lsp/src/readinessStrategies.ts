import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { BrokerStatusNotification, DisposableStore, pathToUri, toDisposable, type BrokerStatusParams, type Disposable } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { findSeedFile, findSourceFiles } from './seedFile.js';

/** pyright logs this once it knows every source file; references sent after it are complete. */
const PYRIGHT_FOUND_FILES = /^(Found \d+ source files?|No source files found)/;
const TS_PROJECT_LOADING = /Initializing JS\/TS language features/;
/** When no signal comes at all, stop calling the server "indexing" after this long. */
const SIGNAL_FALLBACK_MS = 180_000;
const PROGRESS_GRACE_MS = 2_000;
/** Without a compilation database clangd knows only open files: open this many sources at most. */
export const CLANGD_OPEN_LIMIT = 200;
const C_SOURCES = ['.c', '.cc', '.cpp', '.cxx'];

/** Drives `conn.readiness` from the signals its kind of server gives. */
export function attachReadinessStrategy(conn: LspConnection): Disposable {
  const store = new DisposableStore();
  const { readiness, progress, logger } = conn;
  const broker = conn.broker;
  if (broker) {
    // A broker tracks its server's readiness and tells every client.
    const apply = (st: BrokerStatusParams) => (st.ready ? readiness.ready() : readiness.indexing(st.progress ?? { title: st.state }));
    apply(broker);
    store.add(conn.onNotification(BrokerStatusNotification.type, apply));
    return store;
  }

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
      readiness.indexing({ title: 'finding source files' });
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
        conn.documents.sync(uri, conn.server.extensions[extname(seed)] ?? 'typescript', readFileSync(seed, 'utf8'), { internal: true });
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
      readiness.indexing({ title: 'loading the workspace' });
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

    case 'clangd': {
      // With compile_commands.json, opening one file makes clangd read it and index everything in
      // the background (with progress). Without one, clangd indexes only what is open: open the
      // sources so references reach them. Ready once each opened file has been parsed (its first
      // diagnostics push) and no indexing progress is running.
      const hasDatabase = ['compile_commands.json', join('build', 'compile_commands.json')].some((p) => existsSync(join(conn.rootDir, p)));
      const files = findSourceFiles(conn.rootDir, C_SOURCES, hasDatabase ? 1 : CLANGD_OPEN_LIMIT);
      if (!hasDatabase && files.length >= CLANGD_OPEN_LIMIT) {
        logger.warn(`no compile_commands.json and more than ${CLANGD_OPEN_LIMIT} C/C++ sources: clangd will not know every file; generate a compilation database for complete answers`);
      }
      readiness.indexing({ title: 'parsing sources', message: `${files.length} file(s)` });
      const waiting = new Set(files.map((f) => pathToUri(f)));
      let settleTimer: NodeJS.Timeout | undefined;
      store.add(toDisposable(() => clearTimeout(settleTimer)));
      const maybeReady = () => {
        clearTimeout(settleTimer);
        if (waiting.size > 0 || progress.activeCount() > 0 || readiness.state === 'ready') return;
        // Indexing progress may begin just after the last parse: give it a moment to show up.
        settleTimer = setTimeout(() => progress.activeCount() === 0 && waiting.size === 0 && readiness.ready(), 500);
      };
      store.add(conn.diagnostics.onPush((uri) => waiting.delete(uri) && maybeReady()));
      store.add(progress.onProgress(() => maybeReady()));
      for (const file of files) {
        try {
          conn.documents.sync(pathToUri(file), conn.server.extensions[extname(file)] ?? 'cpp', readFileSync(file, 'utf8'), { internal: true });
        } catch (err) {
          waiting.delete(pathToUri(file));
          logger.debug(`could not open ${file}: ${(err as Error).message}`);
        }
      }
      maybeReady();
      break;
    }

    case 'canary':
      readiness.indexing({ title: 'starting' });
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
