import { pathToUri } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import { readCurrent } from './restore.js';

/** LSP FileChangeType. */
const CREATED = 1;
const CHANGED = 2;
const DELETED = 3;

export interface DiskChange {
  path: string;
  /** Whether the file existed before the change. */
  existed: boolean;
}

/**
 * After agent-lsp wrote or restored files: every live server's open buffers take the text now on
 * disk (deleted files are closed), and every server is told which files changed on disk, so the
 * diagnostics that follow describe the disk.
 */
export async function syncServerBuffers(workspace: Workspace, changes: readonly DiskChange[], logger: Logger): Promise<void> {
  if (changes.length === 0) return;
  const now = changes.map((c) => ({ ...c, uri: pathToUri(c.path), data: readCurrent(c.path) }));
  for (const conn of await workspace.liveConnections()) {
    try {
      for (const c of now) {
        const doc = conn.documents.get(c.uri);
        if (!doc) continue;
        if (c.data === null) {
          conn.documents.close(c.uri);
          conn.diagnostics.forget(c.uri);
        } else {
          conn.documents.sync(c.uri, doc.languageId, c.data.toString('utf8'), { internal: doc.internal });
        }
      }
      const events = now.map((c) => ({ uri: c.uri, type: c.data === null ? DELETED : c.existed ? CHANGED : CREATED }));
      conn.notify('workspace/didChangeWatchedFiles', { changes: events });
    } catch (err) {
      logger.warn(`could not bring ${conn.server.displayName}'s buffers in step with the disk: ${(err as Error).message}`);
    }
  }
}
