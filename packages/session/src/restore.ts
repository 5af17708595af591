import { readFileSync, rmdirSync, statSync } from 'node:fs';
import type { BlobStore } from './blobStore.js';
import { contentHash } from './contentHash.js';
import { SessionError } from './errors.js';
import { withPath } from './fileSystemErrors.js';
import type { FileWriter } from './fileWriter.js';
import type { FileBefore } from './intent.js';
import { landingPath } from './writablePath.js';

/** The bytes at `path` now, or null when there is no file. */
export function readCurrent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw withPath(err, path);
  }
}

export function currentHash(path: string): string | null {
  const data = readCurrent(path);
  return data === null ? null : contentHash(data);
}

export function currentMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/**
 * Puts every file back as it was (`before`), byte for byte, removes the ones that did not exist and
 * then the directories that were created for them. Files already as they were are not touched, so
 * restoring twice is harmless. Goes on past a failure and then names every file it could not restore.
 */
export async function restoreFiles(
  files: readonly FileBefore[],
  createdDirs: readonly string[],
  blobs: BlobStore,
  writer: FileWriter,
): Promise<string[]> {
  const restored: string[] = [];
  const failed: string[] = [];
  for (const file of files) {
    try {
      // The path was checked when it was first written; a symlink swapped in since is not followed.
      const lands = landingPath(file.path);
      if (lands !== file.path) throw new Error(`it now resolves to ${lands} through a symlink`);
      const sameContent = currentHash(file.path) === file.before;
      const sameMode = file.before === null || file.mode === undefined || currentMode(file.path) === file.mode;
      if (sameContent && sameMode) continue;
      if (file.before === null) await writer.remove(file.path);
      else await writer.write(file.path, blobs.get(file.before), { mode: file.mode });
      restored.push(file.path);
    } catch (err) {
      failed.push(`${file.path} (${(err as Error).message})`);
    }
  }
  for (const dir of [...createdDirs].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty (someone else put a file there) or already gone: leave it.
    }
  }
  if (failed.length > 0) {
    throw new SessionError('restore_failed', `Could not restore ${failed.length} file(s): ${failed.join('; ')}.`);
  }
  return restored;
}
