import { FileChangeType } from '@agent-lsp/protocol';
import { refreshRestoredFiles, type LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import type { FileEvent } from 'vscode-languageserver-protocol';
import type { SharedDocuments } from './sharedDocuments.js';

/**
 * Files the broker's watcher saw change: open documents that are the disk's take the new text
 * first; then the server hears of all of them, deleted files are closed and created ones a client
 * held before are opened again.
 */
export function followOutsideChanges(
  changes: FileEvent[],
  documents: SharedDocuments,
  connection: () => LspConnection | undefined,
  server: ServerDefinition,
  /** Whether a created file may be opened (not one installed into a library: the server's to read). */
  opens: (uri: string) => boolean = () => true,
): Promise<void> {
  const created = changes.filter((c) => c.type === FileChangeType.Created && opens(c.uri)).map((c) => c.uri);
  const deleted = changes.filter((c) => c.type === FileChangeType.Deleted).map((c) => c.uri);
  return documents
    .diskChanged(changes.map((c) => c.uri))
    .finally(() => connection()?.notify('workspace/didChangeWatchedFiles', { changes }))
    .then(() => {
      documents.closeDeleted(deleted, server);
      return documents.openCreated(created, server);
    })
    .then((restored) => {
      const conn = connection();
      return conn ? refreshRestoredFiles(conn, restored) : undefined;
    });
}
