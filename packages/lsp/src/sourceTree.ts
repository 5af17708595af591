import { readdirSync, type Dirent } from 'node:fs';
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

/** One step of a walk: a file to hand out, or a directory whose entries the driver must read. */
type WalkStep = { file: string } | { dir: string };

/**
 * The walk itself, independent of how directories are read: breadth-first, names sorted
 * (deterministic), skipping directories nobody indexes. It yields `{dir}` and is resumed with that
 * directory's entries (undefined when it cannot be read), so the same order serves the blocking
 * walk and the non-blocking one.
 */
function* walkPlan(root: string, options: WalkOptions): Generator<WalkStep, void, Dirent[] | undefined> {
  const maxDepth = options.maxDepth ?? Infinity;
  const maxEntries = options.maxEntries ?? Infinity;
  let seen = 0;
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = (yield { dir })?.sort((a, b) => a.name.localeCompare(b.name)) ?? [];
      for (const e of entries) {
        if (++seen > maxEntries) return;
        if (e.isFile()) yield { file: join(dir, e.name) };
        else if (e.isDirectory() && !isNotIndexedDir(e.name)) next.push(join(dir, e.name));
      }
    }
    level = next;
  }
}

/**
 * The regular files under `root`, nearest first, reading directories synchronously: only for
 * shallow, bounded walks (a seed file within a few levels). Stop iterating to stop the walk.
 */
export function* walkSourceTree(root: string, options: WalkOptions = {}): Generator<string> {
  const plan = walkPlan(root, options);
  for (let step = plan.next(); !step.done; ) {
    if ('file' in step.value) {
      yield step.value.file;
      step = plan.next();
      continue;
    }
    let entries: Dirent[] | undefined;
    try {
      entries = readdirSync(step.value.dir, { withFileTypes: true });
    } catch {
      entries = undefined;
    }
    step = plan.next(entries);
  }
}

/**
 * walkSourceTree without blocking: the same files in the same order, read a directory at a time
 * with the event loop free in between (for every walk on a tool call's path that may cover the
 * whole workspace).
 */
export async function* walkSourceTreeAsync(root: string, options: WalkOptions = {}): AsyncGenerator<string> {
  const plan = walkPlan(root, options);
  for (let step = plan.next(); !step.done; ) {
    if ('file' in step.value) {
      yield step.value.file;
      step = plan.next();
      continue;
    }
    step = plan.next(await readdir(step.value.dir, { withFileTypes: true }).catch(() => undefined));
  }
}
