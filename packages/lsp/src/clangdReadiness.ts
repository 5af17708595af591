import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { pathToUri, toDisposable } from '@agent-lsp/protocol';
import type { ReadinessFamily } from './readinessContext.js';
import { trackIndexFreshness } from './clangdIndexFreshness.js';
import { findSourceFiles, openSeedFile } from './seedFile.js';

/** Without a compilation database clangd knows only open files: open this many sources at most. */
export const CLANGD_OPEN_LIMIT = 200;
const C_SOURCES = ['.c', '.cc', '.cpp', '.cxx'];
/**
 * Without a compilation database there is no background index, and clangd's index of the open
 * files keeps no references inside the headers they include (only each main file's own): a
 * header's declaration was missing from find_references, and rename_symbol left it unrenamed
 * (the code no longer built). Opened as main files too, the headers' references are indexed; each
 * is closed again once built (the index keeps it), so a header stays a closed file whose outside
 * changes are held until clangd has built them (clangdIndexFreshness.ts), as before.
 */
const C_HEADERS = ['.h', '.hh', '.hpp', '.hxx'];

/**
 * clangd: with compile_commands.json, opening one file makes clangd read it and index everything
 * in the background (with progress). Without one, clangd indexes only what is open: the sources
 * are opened so references reach them. Ready once each opened file has been parsed (its first
 * diagnostics push) and no indexing progress is running; afterwards, not ready again while changed
 * files wait to be built (clangdIndexFreshness.ts).
 */
/**
 * Without a database: the sources first, up to the limit, then headers in the room left — a header
 * must not take the place of a source, whose references only its being open makes known.
 */
export function sourcesThenHeaders(root: string): string[] {
  const sources = findSourceFiles(root, C_SOURCES, CLANGD_OPEN_LIMIT);
  return [...sources, ...findSourceFiles(root, C_HEADERS, CLANGD_OPEN_LIMIT - sources.length)];
}

/**
 * What clangd's index misses without a database when the workspace has more C/C++ files than the
 * `opened` ones: the references in the others. Answers say so (ReadinessSnapshot.partial) instead
 * of looking complete, and edits are refused — a rename left their occurrences unrenamed.
 */
export function unopenedFiles(root: string, opened: number): string | undefined {
  if (findSourceFiles(root, [...C_SOURCES, ...C_HEADERS], opened + 1).length <= opened) return undefined;
  return `there is no compile_commands.json and the workspace has more than ${opened} C/C++ sources and headers: clangd knows only the ${opened} agent-lsp opened (sources first), not the references in the others. Generate a compilation database (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; make: bear -- make) and restart_lsp_server for complete answers.`;
}

export const clangdReadiness: ReadinessFamily = (ctx) => {
  const { conn, store } = ctx;
  const { readiness, progress, logger } = conn;
  const hasDatabase = ['compile_commands.json', join('build', 'compile_commands.json')].some((p) => existsSync(join(conn.rootDir, p)));
  const files = hasDatabase ? findSourceFiles(conn.rootDir, C_SOURCES, 1) : sourcesThenHeaders(conn.rootDir);
  const unindexed = hasDatabase ? undefined : unopenedFiles(conn.rootDir, files.length);
  if (unindexed !== undefined) logger.warn(unindexed);
  readiness.indexing({ title: 'parsing sources', message: `${files.length} file(s)` });
  const waiting = new Set(files.map((f) => pathToUri(f)));
  let settleTimer: NodeJS.Timeout | undefined;
  store.add(toDisposable(() => clearTimeout(settleTimer)));
  const idle = () => waiting.size === 0 && progress.activeCount() === 0 && freshness.idle;
  const maybeReady = () => {
    clearTimeout(settleTimer);
    if (!idle() || readiness.state === 'ready') return;
    // Indexing progress may begin just after the last parse: give it a moment to show up.
    settleTimer = setTimeout(() => idle() && readiness.state !== 'ready' && readiness.ready(freshness.partial), 500);
  };
  const freshness = trackIndexFreshness(ctx, maybeReady, unindexed);
  const headers = new Set(files.filter((f) => C_HEADERS.includes(extname(f))).map((f) => pathToUri(f)));
  store.add(
    conn.diagnostics.onPush((uri) => {
      if (!waiting.delete(uri)) return;
      if (headers.delete(uri) && conn.documents.get(uri)?.internal) conn.documents.close(uri);
      maybeReady();
    }),
  );
  store.add(progress.onProgress(() => maybeReady()));
  for (const file of files) {
    if (!openSeedFile(conn, file)) waiting.delete(pathToUri(file));
  }
  maybeReady();
};
