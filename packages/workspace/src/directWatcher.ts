import { FileChangeType } from '@agent-lsp/protocol';
import type { FileEvent } from 'vscode-languageserver-protocol';
import { DisposableStore, uriToPath, type Disposable } from '@agent-lsp/protocol';
import { WorkspaceWatcher } from '@agent-lsp/broker';
import { closeDeletedFiles, openCreatedFiles, refreshRestoredFiles, serverLibraryDirs, type LspConnection, type Logger, type ReadWriteLock } from '@agent-lsp/lsp';

export type WatchState = 'on' | 'degraded';

/**
 * The front's watcher, for the servers it runs itself (direct and passive mode; a broker watches
 * for its own server): the same ignores and the same freshness rule as the broker's, and files
 * created on disk are opened in the servers at once (openCreatedFiles). Events are delivered by
 * flush(), in a shared section (never over the overlay of a running evaluation), whose door
 * resyncs open documents with the disk; then the servers hear of every changed file.
 */
export class DirectModeWatcher implements Disposable {
  private readonly watcher: WorkspaceWatcher;
  private readonly subscriptions = new DisposableStore();

  constructor(
    root: string,
    logger: Logger,
    private readonly section: ReadWriteLock,
    private readonly connections: () => LspConnection[],
    /** Told of every batch before the servers hear of it (and before a resync closes deleted files). */
    private readonly onChanges: (changes: FileEvent[]) => void = () => undefined,
  ) {
    // A batch is delivered by a flush in a shared section, in the watcher's one line of
    // deliveries: a query's own flush at its section's door waits for it.
    const onBatch = (): void => {
      this.section.shared(() => this.flush()).catch((err: unknown) => logger.warn(`watched file changes not delivered: ${(err as Error).message}`));
    };
    this.watcher = new WorkspaceWatcher({ root, logger, onChanges: (changes) => this.announceNow(changes), onBatch });
    try {
      this.watcher.start();
    } catch (err) {
      this.watcher.degraded = true;
      logger.warn(`could not watch ${root}: ${(err as Error).message}; outside edits reach the servers only when a query finds them`);
    }
  }

  get state(): WatchState {
    return this.watcher.degraded ? 'degraded' : 'on';
  }

  /** agent-lsp wrote this file itself and told the servers: no echo. */
  suppress(path: string): void {
    this.watcher.suppress(path);
  }

  private async announce(changes: FileEvent[]): Promise<void> {
    if (changes.length === 0) return;
    // A module installed into a library is the server's to read, not a document to open.
    const created = changes.filter((c) => c.type === FileChangeType.Created && !this.watcher.inLibrary(uriToPath(c.uri) ?? '')).map((c) => c.uri);
    const deleted = changes.filter((c) => c.type === FileChangeType.Deleted).map((c) => c.uri);
    for (const conn of this.connections()) {
      // A broker's own watcher reports the same files to its server.
      if (conn.broker) continue;
      conn.notify('workspace/didChangeWatchedFiles', { changes });
      closeDeletedFiles(conn.documents, conn.server, deleted);
      const { restored } = await openCreatedFiles(conn.documents, conn.server, created);
      await refreshRestoredFiles(conn, restored);
    }
  }

  /**
   * The server's own directories beyond the workspace's tree (pyright's site-packages, node_modules)
   * are watched too, as a broker does for its server: from now, and as they are at each flush.
   */
  followLibraries(conn: LspConnection): void {
    const dirs = () => [...new Set(this.connections().filter((c) => !c.broker).flatMap((c) => serverLibraryDirs(c)))].sort();
    this.subscriptions.add(conn.onRegistrationChange(() => this.watcher.followLibraries(dirs)));
    this.watcher.followLibraries(dirs);
  }

  /** What the OS already reported reaches the servers now (the caller holds a section, or needs none). */
  flush(): Promise<void> {
    return this.watcher.flush();
  }

  private announceNow(changes: FileEvent[]): Promise<void> {
    this.onChanges(changes);
    return this.announce(changes);
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.watcher.dispose();
  }
}

