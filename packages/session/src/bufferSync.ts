import { existsSync } from 'node:fs';
import { pathToUri, FileChangeType } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';

export interface DiskChange {
  path: string;
  /** Whether the file existed before the change. */
  existed: boolean;
}

/**
 * After agent-lsp wrote or restored files: every live server's open buffers of those files take
 * the text now on disk (deleted files are closed), and every server is told which files changed
 * on disk (the watchers do not report them again), so the diagnostics that follow describe the disk.
 */
export async function syncServerBuffers(workspace: Workspace, changes: readonly DiskChange[], logger: Logger): Promise<void> {
  if (changes.length === 0) return;
  try {
    // Our own write can keep size and mtime (same length, same clock tick): compare content.
    await workspace.syncFromDisk(
      changes.map((c) => c.path),
      { force: true },
    );
    workspace.announceDiskChanges(
      changes.map((c) => ({
        uri: pathToUri(c.path),
        type: !existsSync(c.path) ? FileChangeType.Deleted : c.existed ? FileChangeType.Changed : FileChangeType.Created,
      })),
    );
  } catch (err) {
    logger.warn(`could not bring the servers' buffers in step with the disk: ${(err as Error).message}`);
  }
}
