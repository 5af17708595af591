import type { DocumentStore } from './documents.js';
import type { Logger } from './logger.js';
import type { ServerDefinition } from './serverProfile.js';

/** What these need of a connection (not the class itself: the connection calls refreshDependents). */
interface ServerPeer {
  readonly server: ServerDefinition;
  readonly documents: DocumentStore;
  readonly logger: Logger;
  notify(method: string, params: unknown): void;
  request<R>(method: string, params: unknown, options?: { timeoutMs?: number }): Promise<R>;
}

/**
 * After the server was told of a change that may change other documents' answers (`uri`'s new
 * text, or undefined: watched files and the like), and diagnostics pushed before it no longer
 * settle (DiagnosticsCollector): a server that re-reads what its open documents depend on only
 * when one is saved (clangd: it registers no file watchers) is sent a didSave, so it rebuilds those
 * whose headers changed, on disk or in another open buffer, and publishes their diagnostics again.
 */
export function refreshDependents(conn: Pick<ServerPeer, 'server' | 'documents' | 'notify'>, uri: string | undefined): void {
  if (conn.server.refreshAfterChange !== 'didSave') return;
  const open = conn.documents.uris({ includeInternal: true });
  const saved = open.find((u) => u !== uri) ?? open[0];
  if (saved !== undefined) conn.notify('textDocument/didSave', { textDocument: { uri: saved } });
}

/** How long a server may take to reload its projects after a restoration. */
const RELOAD_TIMEOUT_MS = 60_000;

/**
 * Files deleted and created again on disk (openCreatedFiles' `restored`: git checkout, mv back):
 * tsserver, told of the deletion at once (closeDeletedFiles), keeps the file out of its configured
 * project when it is opened again, so every importer stays "Cannot find module" until tsserver's
 * own watcher fires, seconds later (and never, for one it re-opened before that). Reloading its
 * projects puts the file back at once. Other servers need nothing.
 */
export async function refreshRestoredFiles(conn: Pick<ServerPeer, 'server' | 'request' | 'logger'>, restored: readonly string[]): Promise<void> {
  if (restored.length === 0 || conn.server.refreshAfterChange !== 'reloadProjects') return;
  try {
    await conn.request('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: ['reloadProjects', {}] }, { timeoutMs: RELOAD_TIMEOUT_MS });
  } catch (err) {
    conn.logger.warn(`${conn.server.displayName} could not reload its projects after ${restored.length} file(s) came back on disk: ${(err as Error).message}`);
  }
}
