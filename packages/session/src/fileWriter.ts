import { randomBytes } from 'node:crypto';
import { chmod, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SessionError } from './errors.js';

export interface WriteOptions {
  /** Permission bits for the file (those of the file it replaces, or of the file a rename moves). */
  mode?: number | undefined;
  /** Aborts a write that has not started (and the test pause below). */
  signal?: AbortSignal | undefined;
}

/**
 * How bytes reach the disk. Injected so tests can make a write fail on the third file (CI runs as
 * root, so permission tricks do not make writes fail there). Paths are real, checked paths.
 */
export interface FileWriter {
  /** Replaces or creates `path` with `data` atomically. */
  write(path: string, data: Uint8Array, options?: WriteOptions): Promise<void>;
  /** Deletes the file at `path`; a missing file is not an error. */
  remove(path: string, options?: { signal?: AbortSignal | undefined }): Promise<void>;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new SessionError('cancelled', 'The call was cancelled before its writes finished.');
}

/**
 * The real writer: a temp file beside the target (same filesystem), fsynced, given the target's
 * mode, then renamed over it, so a reader sees the old bytes or the new ones and nothing between.
 */
export const atomicFileWriter: FileWriter = {
  async write(path, data, options = {}) {
    throwIfAborted(options.signal);
    const mode = options.mode ?? (await stat(path).then((s) => s.mode & 0o7777, () => 0o644));
    const temp = join(dirname(path), `.${basename(path)}.agent-lsp-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'wx', mode);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // open() applies the umask; the file must end with exactly the mode it had.
      await chmod(temp, mode);
      await rename(temp, path);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  },
  async remove(path, options = {}) {
    throwIfAborted(options.signal);
    await rm(path, { force: true });
  },
};
