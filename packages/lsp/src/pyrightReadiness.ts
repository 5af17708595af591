import { PYRIGHT_FOUND_FILES, watchPyrightConfig } from './configReload.js';
import { watchPyrightLibraries } from './libraryReload.js';
import type { ReadinessFamily } from './readinessContext.js';

/**
 * pyright: ready at its `Found N source files` log line (its log level is kept at information).
 * It switches off background analysis for clients that pull diagnostics, so "analysis finished"
 * never comes. Before that line it answers from the files it has loaded so far (a references
 * answer then misses most of the workspace, and says nothing of it), and the line always comes at
 * the end of its search for source files (at the log level pyright logs by default and we set): it
 * is waited for however long that takes, never replaced by the no-signal fallback.
 */
export const pyrightReadiness: ReadinessFamily = (ctx) => {
  const { conn, store } = ctx;
  const { readiness } = conn;
  watchPyrightConfig(ctx);
  watchPyrightLibraries(ctx);
  ctx.signalComing();
  readiness.indexing({ title: 'finding source files' });
  store.add(
    conn.onLogMessage((m) => {
      // A configuration change meanwhile: only a load begun after it ends the wait (configReload.ts).
      if (readiness.state === 'ready' || readiness.reloadingConfig) return;
      if (PYRIGHT_FOUND_FILES.test(m.message)) readiness.ready();
      else readiness.indexing({ message: m.message.split('\n')[0] ?? '' });
    }),
  );
};
