import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FileEvent } from 'vscode-languageserver-protocol';
import { pathToUri, type Disposable, FileChangeType } from '@agent-lsp/protocol';
import { inLibraryTarget, inNotIndexedDir, isNotIndexedDir, readRegularFileSync, walkSourceTreeAsync, type Logger } from '@agent-lsp/lsp';

const BATCH_MS = 100;
const OWN_TEMP_FILE = /\.agent-lsp-\d+-[0-9a-f]+\.tmp$/;
/** How long a path we wrote ourselves stays suppressed. */
const OWN_WRITE_MS = 2_000;
/** How long chokidar's own report of an event flush() delivered ahead of it counts as an echo. */
const EARLY_ECHO_MS = 5_000;
/** Files of a directory created just before a query that flush() reports itself. */
const MAX_EARLY_DIRECTORY_FILES = 2_000;

/** A file as a client's own write left it: its content hash, or null when the write removed it. */
interface OwnWrite {
  until: number;
  hash: string | null;
}

function contentHash(path: string): string | null {
  return readRegularFileSync(path)?.state.hash ?? null;
}

/** The file's version as the OS keeps it (nanosecond mtime, size, inode), or null when it is absent: a cheap "written since?". */
function fileVersion(path: string): string | null {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.mtimeNs}:${st.size}:${st.ino}`;
  } catch {
    // ENOENT, or ENOTDIR: a file now stands where a directory of the path was.
    return null;
  }
}

/** Whether the directory came into being at or after `since` (its birth time, where the file system keeps one). */
function madeSince(dir: string, since: number): boolean {
  const st = statSync(dir, { throwIfNoEntry: false });
  return st !== undefined && (st.birthtimeMs || st.ctimeMs) >= since;
}

/** The files chokidar knows in `dir` and its subdirectories (`known`: its getWatched()). */
function knownFilesUnder(known: Record<string, string[]>, dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of known[d] ?? []) {
      const path = join(d, name);
      if (known[path] !== undefined) walk(path);
      else files.push(path);
    }
  };
  walk(dir);
  return files;
}

export interface WorkspaceWatcherOptions {
  root: string;
  logger: Logger;
  onChanges(changes: FileEvent[]): void | Promise<void>;
  /**
   * Called at the end of a batch instead of flush(), for an owner that delivers only from where
   * it must (the front: in a shared section, never over an evaluation's overlay), by calling
   * flush() there. Without it the batch is flush()ed at once.
   */
  onBatch?(): void;
}

/**
 * One watcher per workspace (in the broker for its server; in the front for servers it runs
 * itself): files created, changed or deleted by anything else (shell, git, editors) are reported
 * in batches. chokidar 5 has no glob support, so ignores are a predicate on the path relative to
 * the root: the directories nobody indexes (lsp's sourceTree) and our own temp files.
 */
export class WorkspaceWatcher implements Disposable {
  private watcher: FSWatcher | undefined;
  /** The server's library directories outside the workspace's tree (followLibraries), and their watcher. */
  private libraries: { dirs: readonly string[]; watcher: FSWatcher | undefined } | undefined;
  private librarySource: (() => readonly string[]) | undefined;
  /** When followLibraries was first called: a library directory made since is news itself. */
  private librariesSince = 0;
  private pending = new Map<string, FileChangeType>();
  private timer: NodeJS.Timeout | undefined;
  private pausedDepth = 0;
  private readonly ownWrites = new Map<string, OwnWrite>();
  /** Paths the OS reported (chokidar's raw fs.watch events) since the last flush. */
  private readonly rawPaths = new Set<string>();
  /**
   * Events flush() delivered before chokidar reported them, with the file's version then (null:
   * absent): chokidar's report, when it comes, is an echo if the file is still at that version.
   */
  private readonly early = new Map<string, { until: number; version: string | null }>();
  /** The flush under way (flushes run one at a time). */
  private flushing: Promise<void> = Promise.resolve();
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
    // atomic: false — chokidar would hold each deletion back 100 ms (to report an editor's
    // delete-and-rename save as one change), after it has already forgotten the file: a query in
    // between could learn of the deletion from nobody.
    const w = watch(root, { ignoreInitial: true, persistent: true, atomic: false, ignored: (path: string, stats?: Stats) => WorkspaceWatcher.isIgnored(root, path, stats?.isDirectory() === true) });
    this.watcher = w;
    this.follow(w);
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

  /** Reports what `w` sees: chokidar's events, and the OS's own for flush(). */
  private follow(w: FSWatcher): void {
    w.on('add', (p: string) => this.record(p, FileChangeType.Created));
    w.on('change', (p: string) => this.record(p, FileChangeType.Changed));
    w.on('unlink', (p: string) => this.record(p, FileChangeType.Deleted));
    // fs.watch's own events arrive in the event loop's poll phase, long before chokidar has read
    // the directory and stat'ed the file: flush() resolves them itself (see there).
    w.on('raw', (_event: string, name: string | undefined, details: unknown) => {
      const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (!watched) return;
      if (name && basename(watched) !== name) this.rawPaths.add(join(watched, name));
      else this.rawPaths.add(watched);
    });
  }

  /**
   * Also watches the directories `dirs()` names, the server's own beyond the workspace's tree (a
   * Python interpreter's site-packages, node_modules: libraryWatchTargets), at their top level only:
   * installing, upgrading or removing a package adds or removes an entry there (the package, its
   * metadata, the package manager's lockfile), and one event is all the server needs to resolve
   * its imports again. `dirs()` is asked again before every flush: a directory that appeared since
   * (the first `npm install` made node_modules) is news itself.
   */
  followLibraries(dirs: () => readonly string[]): void {
    this.librarySource = dirs;
    this.librariesSince ||= Date.now();
    this.refreshLibraries();
  }

  private refreshLibraries(): void {
    const dirs = this.librarySource?.();
    const before = this.libraries?.dirs;
    if (!dirs || !this.watcher || before?.join('\0') === dirs.join('\0')) return;
    const added = dirs.filter((d) => !before?.includes(d));
    const removed = before?.filter((d) => !dirs.includes(d)) ?? [];
    // One watcher, its directories added and removed: the ones it watches already lose no event.
    let w = this.libraries?.watcher;
    if (w) {
      if (removed.length > 0) w.unwatch(removed);
      if (added.length > 0) w.add(added);
    } else if (added.length > 0) {
      w = watch(added, { ignoreInitial: true, persistent: true, atomic: false, depth: 0 });
      w.on('addDir', (p: string) => this.record(p, FileChangeType.Created));
      w.on('unlinkDir', (p: string) => this.record(p, FileChangeType.Deleted));
      this.follow(w);
      w.on('error', (err: unknown) => this.options.logger.warn(`library watcher error: ${(err as Error).message}`));
    }
    if (added.length > 0) this.options.logger.info(`watching the server's library directories: ${dirs.join(', ')}`);
    this.libraries = { dirs: [...dirs], watcher: w };
    // Not one that is merely new to the list (the server registered it, a client's folder brought it).
    for (const dir of before ? added.filter((d) => madeSince(d, this.librariesSince)) : []) this.record(dir, FileChangeType.Created);
  }

  /** Whether `path` is in one of the library directories followLibraries watches. */
  inLibrary(path: string): boolean {
    return this.libraries !== undefined && inLibraryTarget(this.libraries.dirs, path);
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
    // chokidar has reported it: nothing left for a flush to settle (keeps rawPaths to the pending few).
    this.rawPaths.delete(path);
    const early = this.early.get(path);
    if (early !== undefined) {
      this.early.delete(path);
      // Written again since (the next edit of an agent's loop): news, whatever chokidar calls it.
      if (Date.now() < early.until && fileVersion(path) === early.version) return;
    }
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

  /**
   * The end of a batch delivers through flush(), one delivery after the other, never by taking the
   * events aside: a query's flush() that found them already taken by a batch still on its way to
   * the server (the front's waits for a shared section and resyncs open documents first) let the
   * query go before the server heard of them, answered as complete (clangd: a file put back just
   * before the query still counted as deleted).
   */
  private schedule(): void {
    if (this.timer || this.pausedDepth > 0 || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.pausedDepth > 0) return;
      if (this.options.onBatch) this.options.onBatch();
      else this.flush().catch((err: unknown) => this.options.logger.warn(`watched file changes not delivered: ${(err as Error).message}`));
    }, BATCH_MS);
  }

  private take(): FileEvent[] {
    const changes = [...this.pending].map(([path, type]) => ({ uri: pathToUri(path), type }));
    this.pending.clear();
    return changes;
  }

  /**
   * Delivers at once what the OS has already reported, instead of at the end of the batch: called
   * before a query reaches the server, so a file written, created or deleted just before the query
   * arrived is news to the server by then. A poll phase of the event loop lets pending OS events
   * arrive (as chokidar's raw events); chokidar would need several more (a directory read, a stat
   * per entry) to report a new file, so each path the OS named is stat'ed here and reported as
   * created, changed or deleted by whether the server was last told it exists. `deliver` replaces
   * onChanges (a caller already inside the section onChanges would take). `eventsRead`, when the
   * caller has it, resolves once the OS's news up to the query's arrival has been read (see
   * afterCurrentPoll: a query read in a poll phase); without it the flush waits two turns of the
   * loop itself.
   */
  flush(deliver?: (changes: FileEvent[]) => void | Promise<void>, eventsRead?: Promise<void>): Promise<void> {
    // One after the other: a flush that finds the OS's news already taken by one still delivering
    // it (another query's door, a speculation's) must not let its query go before that delivery.
    const run = this.flushing.then(() => this.flushOnce(deliver, eventsRead));
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(deliver?: (changes: FileEvent[]) => void | Promise<void>, eventsRead?: Promise<void>): Promise<void> {
    if (!this.watcher || this.pausedDepth > 0) return;
    this.refreshLibraries();
    if (eventsRead) await eventsRead;
    else {
      // Two turns: called from an I/O callback, the first setImmediate runs before the loop polls
      // again, so an event the OS queued a moment ago (a write by this very process, or one racing
      // the query's own bytes) would not have been read yet.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.resolveRawPaths();
    if (this.pending.size === 0 || this.pausedDepth > 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const changes = this.take();
    await (deliver ? deliver(changes) : this.options.onChanges(changes));
  }

  private async resolveRawPaths(): Promise<void> {
    const watcher = this.watcher;
    if (!watcher || this.rawPaths.size === 0) return;
    const paths = [...this.rawPaths].filter((p) => this.inLibrary(p) || !WorkspaceWatcher.isIgnored(this.options.root, p));
    this.rawPaths.clear();
    const known = watcher.getWatched();
    const reportEarly = (path: string, type: FileChangeType) => {
      this.early.delete(path); // an earlier flush's entry must not swallow this newer event
      this.record(path, type);
      this.early.set(path, { until: Date.now() + EARLY_ECHO_MS, version: fileVersion(path) });
    };
    // Whether the server was last told the file exists: an earlier flush's report is newer than
    // what chokidar knows until chokidar reports the path itself (a file created, reported, and
    // deleted again before chokidar read it is still reported deleted).
    const serverKnows = (path: string): boolean => {
      const early = this.early.get(path);
      return early !== undefined ? early.version !== null : known[dirname(path)]?.includes(basename(path)) === true;
    };
    await Promise.all(
      paths.map(async (path) => {
        const st = await stat(path).catch(() => undefined);
        const reportedGone = (file: string) => this.early.get(file)?.version === null;
        // A library's entry: the entry itself is the news (the server reloads the whole library).
        if (this.inLibrary(path)) reportEarly(path, st ? FileChangeType.Created : FileChangeType.Deleted);
        else if (st?.isFile()) reportEarly(path, serverKnows(path) ? FileChangeType.Changed : FileChangeType.Created);
        else if (!st && known[path] !== undefined) {
          // A directory chokidar knows, gone (rm -rf, mv), that chokidar has not looked at yet:
          // the files it knew in it (the OS names them one by one only for a removal).
          for (const file of knownFilesUnder(known, path)) if (!reportedGone(file)) reportEarly(file, FileChangeType.Deleted);
        }
        // Gone, unless a flush already said so. Not "unless chokidar does not know it": chokidar
        // forgets a file as soon as the OS says it was renamed or removed, before it reports that.
        else if (!st && !reportedGone(path)) reportEarly(path, FileChangeType.Deleted);
        else if (st?.isDirectory() && !WorkspaceWatcher.isIgnored(this.options.root, path, true)) {
          // A directory that appeared whole (git checkout, mv), or one chokidar knows but has not
          // read yet (mkdir, then a file written in it at once): files it does not know are new.
          for await (const file of walkSourceTreeAsync(path, { maxEntries: MAX_EARLY_DIRECTORY_FILES })) {
            if (WorkspaceWatcher.isIgnored(this.options.root, file) || serverKnows(file)) continue;
            reportEarly(file, FileChangeType.Created);
          }
        }
      }),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    void this.libraries?.watcher?.close();
    this.libraries = undefined;
    this.librarySource = undefined;
    void this.watcher?.close();
    this.watcher = undefined;
  }
}
