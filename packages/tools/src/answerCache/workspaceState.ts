import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { walkSourceDirsAsync } from '@agent-lsp/lsp';

/**
 * The state of a workspace's files as one hash: every regular file the project indexes (the walk
 * every other part uses: dot-directories and NOT_INDEXED_DIRS left out), by root-relative path and
 * content hash. A cached answer is keyed on it, so it is served only while every file it may
 * depend on is byte for byte what it was computed on — an edit to a.py changes the state every
 * answer about b.py is keyed on. Root-relative, so a copy of the same tree elsewhere has the same
 * state (an imported cache maps onto another path by construction).
 */
export interface WorkspaceState {
  hash: string;
  files: number;
}

interface Hashed {
  size: number;
  mtimeNs: bigint;
  /** Set by the kernel on every write and not settable by utimes: a write that restores size and mtime still changes it. */
  ctimeNs: bigint;
  ino: number;
  /** When it was hashed (ns since the epoch). */
  hashedAtNs: bigint;
  hash: string;
}

/**
 * A file whose ctime is within this of when it was hashed may have been written again in the same
 * clock tick without its stat changing (git's "racily clean" case): it is hashed again each time
 * until it is older than that, so a stat match is trusted only where it proves the content.
 */
const RACY_WINDOW_NS = 2_000_000_000n;
const STATS_AT_ONCE = 64;

/** Content hashes by absolute path, reused while a file's stat proves it unchanged. */
const memo = new Map<string, Hashed>();

async function fileHash(path: string): Promise<string | undefined> {
  const before = await stat(path, { bigint: true }).catch(() => undefined);
  if (!before?.isFile()) return undefined;
  const known = memo.get(path);
  const unchanged = known && known.size === Number(before.size) && known.mtimeNs === before.mtimeNs && known.ctimeNs === before.ctimeNs && known.ino === Number(before.ino);
  if (known && unchanged && before.ctimeNs + RACY_WINDOW_NS < known.hashedAtNs) return known.hash;
  // Taken before the read: a write during it leaves the file inside the racy window, hashed again next time.
  const hashedAtNs = BigInt(Date.now()) * 1_000_000n;
  const data = await readFile(path).catch(() => undefined);
  if (data === undefined) return undefined;
  const hash = createHash('sha256').update(data).digest('hex');
  memo.set(path, { size: Number(before.size), mtimeNs: before.mtimeNs, ctimeNs: before.ctimeNs, ino: Number(before.ino), hashedAtNs, hash });
  return hash;
}

/** The state of `root`'s files now (see WorkspaceState). */
export async function workspaceState(root: string, signal?: AbortSignal): Promise<WorkspaceState> {
  const paths: string[] = [];
  for await (const { dir, files } of walkSourceDirsAsync(root)) for (const name of files) paths.push(join(dir, name));
  const entries: string[] = [];
  for (let i = 0; i < paths.length; i += STATS_AT_ONCE) {
    signal?.throwIfAborted();
    const batch = paths.slice(i, i + STATS_AT_ONCE);
    const hashes = await Promise.all(batch.map(fileHash));
    for (const [k, path] of batch.entries()) if (hashes[k] !== undefined) entries.push(`${relative(root, path).split(sep).join('/')}\0${hashes[k]}`);
  }
  entries.sort();
  return { hash: createHash('sha256').update(entries.join('\n')).digest('hex'), files: entries.length };
}
