import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { chmod, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * agent-lsp's one way to replace a file atomically, for everything it writes (workspace files,
 * blobs, checkpoints, intent records, daemon status): a temp file beside the target (same
 * filesystem), written, fsynced, given exactly `mode` (open applies the umask), then renamed over
 * the target, so a reader sees the old bytes or the new ones and nothing between. The sync form is
 * for small state files written from synchronous code; both take the same steps.
 */
export interface AtomicWriteOptions {
  /** Permission bits of the file written. */
  mode: number;
}

/** The temp file for `path`: hidden, named after it and this process, so a leftover is recognisable. */
export function atomicTempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.agent-lsp-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

export async function writeFileAtomic(path: string, data: Uint8Array | string, options: AtomicWriteOptions): Promise<void> {
  const temp = atomicTempPath(path);
  try {
    const handle = await open(temp, 'wx', options.mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(temp, options.mode);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}

export function writeFileAtomicSync(path: string, data: Uint8Array | string, options: AtomicWriteOptions): void {
  const temp = atomicTempPath(path);
  try {
    const fd = openSync(temp, 'wx', options.mode);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, options.mode);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
