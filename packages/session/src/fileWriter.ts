import { rm, stat } from 'node:fs/promises';
import { writeFileAtomic } from '@agent-lsp/lsp';
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

/** The real writer: writeFileAtomic, keeping the mode of the file it replaces (0644 for a new one). */
export const atomicFileWriter: FileWriter = {
  async write(path, data, options = {}) {
    throwIfAborted(options.signal);
    const mode = options.mode ?? (await stat(path).then((s) => s.mode & 0o7777, () => 0o644));
    await writeFileAtomic(path, data, { mode });
  },
  async remove(path, options = {}) {
    throwIfAborted(options.signal);
    await rm(path, { force: true });
  },
};
