import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';

/**
 * How long a file created or changed on disk counts as recent. Servers take the news of a file
 * they do not hold open in their own time (tsserver updates a project's file list on a timer a
 * few hundred milliseconds after the event): until then an answer may not know the file.
 */
export const RECENT_CHANGE_MS = 10_000;
/** At most this many recent files are opened before one call (a checkout of thousands is not). */
export const MAX_RECENT_OPENED = 64;

/**
 * Files created or changed on disk in the last moments, newest last: before a query, those a
 * server does not hold open are opened with their disk text, so the answer knows them whether or
 * not the server has processed the watcher's news yet.
 */
export class RecentFileChanges {
  private readonly changedAt = new Map<string, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  note(changes: readonly FileEvent[]): void {
    const now = this.clock();
    for (const c of changes) {
      const path = uriToPath(c.uri);
      if (!path) continue;
      this.changedAt.delete(path);
      if (c.type !== FileChangeType.Deleted) this.changedAt.set(path, now);
    }
  }

  /** The recent files, newest last (at most MAX_RECENT_OPENED); older ones are forgotten. */
  recent(): string[] {
    const since = this.clock() - RECENT_CHANGE_MS;
    for (const [path, at] of this.changedAt) {
      if (at >= since) break;
      this.changedAt.delete(path);
    }
    return [...this.changedAt.keys()].slice(-MAX_RECENT_OPENED);
  }

  /** Opened: no longer needs opening (the freshness checks of open documents take over). */
  forget(path: string): void {
    this.changedAt.delete(path);
  }

  clear(): void {
    this.changedAt.clear();
  }
}
