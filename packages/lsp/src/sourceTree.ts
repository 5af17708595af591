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

/** Directories a walk asks for at once: enough to keep libuv's four threads busy. */
const READS_AT_ONCE = 16;

/** One step of a walk: the files found in a directory to hand out, or directories whose entries the driver must read. */
type WalkStep = { dir: string; files: string[] } | { dirs: string[] };

/**
 * The walk itself, independent of how directories are read: breadth-first, names sorted by code
 * unit (deterministic on every machine whatever its locale, and no ICU collator to load: that
 * cost a fresh front ~8 ms on its first start_lsp), skipping directories nobody indexes. It yields
 * `{dirs}` (up to READS_AT_ONCE of one level) and is resumed with each one's entries (undefined
 * for one that cannot be read), so the same order serves the blocking walk and the non-blocking
 * one, which reads them concurrently. Files come a directory at a time (its regular files' names).
 */
function* walkPlan(root: string, options: WalkOptions): Generator<WalkStep, void, (Dirent[] | undefined)[]> {
  const maxDepth = options.maxDepth ?? Infinity;
  const maxEntries = options.maxEntries ?? Infinity;
  let seen = 0;
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += READS_AT_ONCE) {
      const dirs = level.slice(i, i + READS_AT_ONCE);
      const listed = yield { dirs };
      for (const [k, dir] of dirs.entries()) {
        const files: string[] = [];
        let full = false;
        for (const e of listed[k]?.sort(byName) ?? []) {
          if (++seen > maxEntries) {
            full = true;
            break;
          }
          if (e.isFile()) files.push(e.name);
          else if (e.isDirectory() && !isNotIndexedDir(e.name)) next.push(join(dir, e.name));
        }
        if (files.length > 0) yield { dir, files };
        if (full) return;
      }
    }
    level = next;
  }
}

/** Ordinal order of directory entries' names. */
function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function listSync(dir: string): Dirent[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

/**
 * The regular files under `root`, nearest first, reading directories synchronously: only for
 * shallow, bounded walks (a seed file within a few levels). Stop iterating to stop the walk.
 */
export function* walkSourceTree(root: string, options: WalkOptions = {}): Generator<string> {
  const plan = walkPlan(root, options);
  for (let step = plan.next(); !step.done; ) {
    if ('files' in step.value) {
      for (const name of step.value.files) yield join(step.value.dir, name);
      step = plan.next();
    } else {
      step = plan.next(step.value.dirs.map(listSync));
    }
  }
}

/**
 * The walk of walkSourceTreeAsync a directory at a time: each directory holding files, with their
 * names. For walks that look only at names (language detection counts files by extension), without
 * a path and a turn of the event loop per file.
 */
export async function* walkSourceDirsAsync(root: string, options: WalkOptions = {}): AsyncGenerator<{ dir: string; files: readonly string[] }> {
  const plan = walkPlan(root, options);
  for (let step = plan.next(); !step.done; ) {
    if ('files' in step.value) {
      yield step.value;
      step = plan.next();
    } else {
      step = plan.next(await Promise.all(step.value.dirs.map((dir) => readdir(dir, { withFileTypes: true }).catch(() => undefined))));
    }
  }
}

/**
 * walkSourceTree without blocking: the same files in the same order, with the event loop free
 * while directories are read (READS_AT_ONCE at a time), for every walk on a tool call's path that
 * may cover the whole workspace.
 */
export async function* walkSourceTreeAsync(root: string, options: WalkOptions = {}): AsyncGenerator<string> {
  for await (const { dir, files } of walkSourceDirsAsync(root, options)) {
    for (const name of files) yield join(dir, name);
  }
}
