import type { LspConnection } from './connection.js';

/** How long a server may take to reload its projects after a restoration. */
const RELOAD_TIMEOUT_MS = 60_000;

/**
 * Files deleted and created again on disk (openCreatedFiles' `restored`: git checkout, mv back):
 * tsserver, told of the deletion at once (closeDeletedFiles), keeps the file out of its configured
 * project when it is opened again, so every importer stays "Cannot find module" until tsserver's
 * own watcher fires, seconds later (and never, for one it re-opened before that). Reloading its
 * projects puts the file back at once. Other servers need nothing.
 */
export async function refreshRestoredFiles(conn: Pick<LspConnection, 'server' | 'request' | 'logger'>, restored: readonly string[]): Promise<void> {
  if (restored.length === 0 || conn.server.refreshAfterChange !== 'reloadProjects') return;
  try {
    await conn.request('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: ['reloadProjects', {}] }, { timeoutMs: RELOAD_TIMEOUT_MS });
  } catch (err) {
    conn.logger.warn(`${conn.server.displayName} could not reload its projects after ${restored.length} file(s) came back on disk: ${(err as Error).message}`);
  }
}
