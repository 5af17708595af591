import { watchPyrightConfig } from './configReload.js';
import type { ReadinessFamily } from './readinessContext.js';

/** pyright logs this once it knows every source file; references sent after it are complete. */
const PYRIGHT_FOUND_FILES = /^(Found \d+ source files?|No source files found)/;

/**
 * pyright: ready at its `Found N source files` log line (its log level is kept at information).
 * It switches off background analysis for clients that pull diagnostics, so "analysis finished"
 * never comes.
 */
export const pyrightReadiness: ReadinessFamily = (ctx) => {
  const { conn, store } = ctx;
  const { readiness } = conn;
  watchPyrightConfig(ctx);
  readiness.indexing({ title: 'finding source files' });
  store.add(
    conn.onLogMessage((m) => {
      if (readiness.state === 'ready') return;
      if (PYRIGHT_FOUND_FILES.test(m.message)) readiness.ready();
      else readiness.indexing({ message: m.message.split('\n')[0] ?? '' });
    }),
  );
};
