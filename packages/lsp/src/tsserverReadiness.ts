import { pathToUri } from '@agent-lsp/protocol';
import { SIGNAL_FALLBACK_MS, type ReadinessContext, type ReadinessFamily } from './readinessContext.js';
import { findSeedFile, openSeedFile } from './seedFile.js';
import { watchTsserverConfig } from './configReload.js';

/**
 * TypeScript servers load a project only for an open file, so one source file is opened to load
 * the main project now; a request on it is answered once the project has loaded. Progress titled
 * `loading` marks later loads (another tsconfig project) while they last.
 */
function projectLoadReadiness(loading: RegExp, title: string): ReadinessFamily {
  return (ctx) => openSeedProject(ctx, loading, title);
}

/**
 * typescript-language-server: with useSyntaxServer: never, a request waits for the project; its
 * loads show as "Initializing JS/TS language features" progress.
 */
export const tsserverReadiness: ReadinessFamily = (ctx) => {
  openSeedProject(ctx, /Initializing JS\/TS language features/, 'Initializing JS/TS language features');
  watchTsserverConfig(ctx);
};

/**
 * typescript-go: every request waits for the project of its file to load (sessions adopt a loaded
 * snapshot before answering); a load that takes a while shows as "Loading" progress (message
 * "Project 'tsconfig.json'"), a quick one shows nothing.
 */
export const tsgoReadiness = projectLoadReadiness(/^Loading$/, 'Loading');

/**
 * vtsls (VS Code's TypeScript extension over tsserver): with useSyntaxServer: never, a request
 * waits for the project; a load shows as "Initializing 'tsconfig.json'" progress. Before any file
 * is open it knows no project, and workspace/symbol answers an empty list.
 */
export const vtslsReadiness = projectLoadReadiness(/^Initializing '/, 'Initializing project');

/**
 * Volar's servers (astro-ls, vue-language-server) create the TypeScript project of a file when a
 * request first names it; before that workspace/symbol answers an empty list. They show no
 * progress: ready once the seed file's symbols are answered.
 */
export const volarReadiness = projectLoadReadiness(/(?!)/, 'Creating the TypeScript project');

function openSeedProject({ conn, store }: ReadinessContext, loading: RegExp, title: string): void {
  const { readiness, progress, logger } = conn;
  const exts = Object.keys(conn.server.extensions);
  const seed = findSeedFile(conn.rootDir, exts.filter((e) => e.includes('ts')), 4) ?? findSeedFile(conn.rootDir, exts, 4);
  let seedLoaded = false;
  // Only project loads gate readiness: other progress (vtsls's "Analyzing 'x.ts' and its
  // dependencies" for a request) is a request's own work, and one whose end never comes (its
  // request cancelled) would otherwise hold the server "loading" until the caller gave up.
  const loads = new Set<string | number>();
  store.add(
    progress.onProgress((e) => {
      if (e.kind === 'begin' && !loading.test(e.title)) return;
      if (e.kind === 'begin') {
        loads.add(e.token);
        readiness.indexing(e.info);
      } else if (e.kind === 'end' && loads.delete(e.token) && seedLoaded && loads.size === 0) readiness.ready();
    }),
  );
  if (!seed) {
    seedLoaded = true;
    readiness.ready();
    return;
  }
  readiness.indexing({ title, message: 'loading the project' });
  const uri = pathToUri(seed);
  openSeedFile(conn, seed);
  conn.request('textDocument/documentSymbol', { textDocument: { uri } }, { timeoutMs: SIGNAL_FALLBACK_MS }).then(
    () => {
      seedLoaded = true;
      if (loads.size === 0) readiness.ready();
    },
    (err: Error) => {
      seedLoaded = true;
      logger.debug(`seed request failed: ${err.message}`);
      if (conn.isAlive) readiness.ready();
    },
  );
}
