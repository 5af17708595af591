import { readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * Directories nobody indexes: vendored dependencies, virtual environments, caches and build
 * output. Every walk over a workspace (seed files, language detection, dependents) and the file
 * watcher skip them, and every directory whose name starts with a dot (.git, .venv, .tox,
 * .mypy_cache, .next, .cache, editor settings...).
 */
export const NOT_INDEXED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '__pycache__',
  'venv',
  'site-packages',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
]);

/** Whether a directory of this name is skipped by every walk and by the watcher. */
export function isNotIndexedDir(name: string): boolean {
  return name.startsWith('.') || NOT_INDEXED_DIRS.has(name);
}

/** Whether `path` lies in a directory nobody indexes, below `root` (the root itself never is). */
export function inNotIndexedDir(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..')) return false;
  const parts = rel.split(sep);
  parts.pop();
  return parts.some(isNotIndexedDir);
}

export interface WalkOptions {
  /** Levels below the root to enter (the root's own files are depth 0). */
  maxDepth?: number;
  /** Directory entries to look at in all before stopping (bounds a walk over a huge tree). */
  maxEntries?: number;
}

/**
 * The regular files under `root`, nearest first (breadth-first, names sorted: deterministic),
 * skipping directories nobody indexes. Stop iterating to stop the walk.
 */
export function* walkSourceTree(root: string, options: WalkOptions = {}): Generator<string> {
  const maxDepth = options.maxDepth ?? Infinity;
  const maxEntries = options.maxEntries ?? Infinity;
  let seen = 0;
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++seen > maxEntries) return;
        if (e.isFile()) yield join(dir, e.name);
        else if (e.isDirectory() && !isNotIndexedDir(e.name)) next.push(join(dir, e.name));
      }
    }
    level = next;
  }
}

/**
 * walkSourceTree without blocking: the same files in the same order, read a directory at a time
 * with the event loop free in between (for walks on a tool call's path, such as start_lsp's
 * language detection, which may be on a fresh front's way to its first answer).
 */
export async function* walkSourceTreeAsync(root: string, options: WalkOptions = {}): AsyncGenerator<string> {
  const maxDepth = options.maxDepth ?? Infinity;
  const maxEntries = options.maxEntries ?? Infinity;
  let seen = 0;
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    // A level's directories are read several at a time (one after another, the walk of a
    // 1,600-file tree waited on each readdir's trip to the thread pool in turn), then taken in order.
    for (let i = 0; i < level.length; i += READS_AT_ONCE) {
      const batch = level.slice(i, i + READS_AT_ONCE);
      const listed = await Promise.all(batch.map((dir) => readdir(dir, { withFileTypes: true }).then((entries) => entries.sort((a, b) => a.name.localeCompare(b.name)), () => undefined)));
      for (const [k, entries] of listed.entries()) {
        if (!entries) continue;
        const dir = batch[k]!;
        for (const e of entries) {
          if (++seen > maxEntries) return;
          if (e.isFile()) yield join(dir, e.name);
          else if (e.isDirectory() && !isNotIndexedDir(e.name)) next.push(join(dir, e.name));
        }
      }
    }
    level = next;
  }
}

/** Directories walkSourceTreeAsync reads at once: enough to keep libuv's four threads busy. */
const READS_AT_ONCE = 16;
