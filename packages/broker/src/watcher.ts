import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import { pathToUri, type Disposable } from '@agent-lsp/protocol';
import { inNotIndexedDir, isNotIndexedDir, readRegularFileSync, type Logger } from '@agent-lsp/lsp';

const BATCH_MS = 100;
const OWN_TEMP_FILE = /\.agent-lsp-\d+-[0-9a-f]+\.tmp$/;
/** How long a path we wrote ourselves stays suppressed. */
const OWN_WRITE_MS = 2_000;

/** A file as a client's own write left it: its content hash, or null when the write removed it. */
interface OwnWrite {
  until: number;
  hash: string | null;
}

function contentHash(path: string): string | null {
  return readRegularFileSync(path)?.state.hash ?? null;
}

export interface WorkspaceWatcherOptions {
  root: string;
  logger: Logger;
  onChanges(changes: FileEvent[]): void | Promise<void>;
}

/**
 * One watcher per workspace (in the broker for its server; in the front for servers it runs
 * itself): files created, changed or deleted by anything else (shell, git, editors) are reported
 * in batches. chokidar 5 has no glob support, so ignores are a predicate on the path relative to
 * the root: the directories nobody indexes (lsp's sourceTree) and our own temp files.
 */
export class WorkspaceWatcher implements Disposable {
  private watcher: FSWatcher | undefined;
  private pending = new Map<string, FileChangeType>();
  private timer: NodeJS.Timeout | undefined;
  private pausedDepth = 0;
  private readonly ownWrites = new Map<string, OwnWrite>();
  /**
   * Paths the OS reported (chokidar's raw fs.watch events) that chokidar has not turned into an
   * event yet: it reads the directory and stats the file first, over several turns of the thread
   * pool. flush() settles them itself, so a file created just before a query is news by then.
   */
  private readonly raw = new Set<string>();
  /** false once the OS refused more watches (ENOSPC): the broker keeps serving, unwatched. */
  degraded = false;

  constructor(private readonly options: WorkspaceWatcherOptions) {}

  /** Whether changes at `path` (a directory when `isDirectory`) are never reported. */
  static isIgnored(root: string, path: string, isDirectory = false): boolean {
    const rel = relative(root, path);
    if (rel === '' || rel.startsWith('..')) return false;
    // The transaction writer's temp files (see packages/session fileWriter) are never news.
    if (OWN_TEMP_FILE.test(path)) return true;
    return inNotIndexedDir(root, path) || (isDirectory && isNotIndexedDir(basename(path)));
  }

  start(): void {
    const { root, logger } = this.options;
    const w = watch(root, { ignoreInitial: true, persistent: true, ignored: (path: string, stats?: Stats) => WorkspaceWatcher.isIgnored(root, path, stats?.isDirectory() === true) });
    this.watcher = w;
    w.on('add', (p: string) => this.record(p, FileChangeType.Created));
    w.on('change', (p: string) => this.record(p, FileChangeType.Changed));
    w.on('unlink', (p: string) => this.record(p, FileChangeType.Deleted));
    w.on('raw', (_event, name: string | null, details: unknown) => {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof watched !== 'string' || !name) return;
      // A directory's watch names the entry; a file's own watch names the file itself.
      const path = basename(watched) === name ? watched : join(watched, name);
      if (!WorkspaceWatcher.isIgnored(root, path)) this.raw.add(path);
    });
    w.on('error', (err: unknown) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EMFILE') {
        this.degraded = true;
        logger.warn(`file watching degraded (${code}: the system's watch limit is reached); edits made outside agent-lsp may not reach the server. Raise fs.inotify.max_user_watches to fix.`);
        void w.close();
      } else {
        logger.warn(`watcher error: ${(err as Error).message}`);
      }
    });
  }

  /**
   * A client already told the server about this path, as it is on disk now (agent-lsp's own
   * transactions report their writes): drop the watcher's echo of it, pending or still to come.
   * Only an echo: an event that finds other content than the reported write's (an editor, git or
   * a formatter wrote the file again meanwhile) is news, and is reported.
   */
  suppress(path: string): void {
    this.ownWrites.set(path, { until: Date.now() + OWN_WRITE_MS, hash: contentHash(path) });
    this.pending.delete(path);
  }

  /** Defers events (an exclusive section is held) until the matching resume(). */
  pause(): void {
    this.pausedDepth++;
  }

  resume(): void {
    if (this.pausedDepth > 0) this.pausedDepth--;
    if (this.pausedDepth === 0) this.schedule();
  }

  private record(path: string, type: FileChangeType): void {
    this.raw.delete(path);
    const own = this.ownWrites.get(path);
    if (own !== undefined) {
      if (Date.now() < own.until && contentHash(path) === own.hash) return;
      this.ownWrites.delete(path);
    }
    const previous = this.pending.get(path);
    // created then changed is still a creation; created then deleted is nothing at all
    if (previous === FileChangeType.Created && type === FileChangeType.Deleted) this.pending.delete(path);
    else if (previous === FileChangeType.Created && type === FileChangeType.Changed) return;
    else this.pending.set(path, type);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.pausedDepth > 0 || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.pausedDepth > 0) return;
      void this.options.onChanges(this.take());
    }, BATCH_MS);
  }

  private take(): FileEvent[] {
    const changes = [...this.pending].map(([path, type]) => ({ uri: pathToUri(path), type }));
    this.pending.clear();
    return changes;
  }

  /**
   * Delivers at once what the OS has already reported, instead of at the end of the batch: called
   * before a query reaches the server, so a file written just before the query arrived is news to
   * the server by then. One event-loop turn lets pending OS events reach chokidar, and one
   * thread-pool turn lets its stat of them finish (it was queued first). `deliver` replaces
   * onChanges (a caller already inside the section onChanges would take).
   */
  async flush(deliver?: (changes: FileEvent[]) => void | Promise<void>): Promise<void> {
    if (!this.watcher || this.pausedDepth > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
    await stat(this.options.root).catch(() => undefined);
    await this.settleRaw();
    if (this.pending.size === 0 || this.pausedDepth > 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const changes = this.take();
    await (deliver ? deliver(changes) : this.options.onChanges(changes));
  }

  /** Raw OS reports chokidar has not delivered yet become events now, from a stat of each path. */
  private async settleRaw(): Promise<void> {
    const paths = [...this.raw];
    this.raw.clear();
    if (paths.length === 0) return;
    const watched = this.watcher?.getWatched() ?? {};
    await Promise.all(
      paths.map(async (path) => {
        const st = await stat(path).catch(() => undefined);
        const known = watched[join(path, '..')]?.includes(basename(path)) ?? false;
        if (st?.isFile()) this.record(path, known ? FileChangeType.Changed : FileChangeType.Created);
        else if (!st && known) this.record(path, FileChangeType.Deleted);
      }),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    void this.watcher?.close();
    this.watcher = undefined;
  }
}
