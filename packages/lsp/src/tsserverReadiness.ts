import { extname } from 'node:path';
import { pathToUri } from '@agent-lsp/protocol';
import { SIGNAL_FALLBACK_MS, type ReadinessFamily } from './readinessContext.js';
import { readRegularFileSync } from './diskText.js';
import { findSeedFile } from './seedFile.js';

const TS_PROJECT_LOADING = /Initializing JS\/TS language features/;

/**
 * typescript-language-server: tsserver loads a project only for an open file, so one source file
 * is opened to load the main project now; a request on it is answered once the project has loaded
 * (useSyntaxServer: never). "Initializing JS/TS language features" progress marks later loads.
 */
export const tsserverReadiness: ReadinessFamily = ({ conn, store }) => {
  const { readiness, progress, logger } = conn;
  const exts = Object.keys(conn.server.extensions);
  const seed = findSeedFile(conn.rootDir, exts.filter((e) => e.includes('ts')), 4) ?? findSeedFile(conn.rootDir, exts, 4);
  let seedLoaded = false;
  store.add(
    progress.onProgress((e) => {
      if (!TS_PROJECT_LOADING.test(e.title)) return;
      if (e.kind === 'begin') readiness.indexing(e.info);
      else if (e.kind === 'end' && seedLoaded) readiness.ready();
    }),
  );
  if (!seed) {
    seedLoaded = true;
    readiness.ready();
    return;
  }
  readiness.indexing({ title: 'Initializing JS/TS language features', message: 'loading the project' });
  const uri = pathToUri(seed);
  const file = readRegularFileSync(seed);
  if (file) conn.documents.sync(uri, conn.server.extensions[extname(seed)] ?? 'typescript', file.text, { internal: true, disk: file.state });
  else logger.warn(`could not open ${seed} to load the project`);
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
};
