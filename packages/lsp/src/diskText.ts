import { createHash } from 'node:crypto';
import { constants, readFileSync, statSync, type BigIntStats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { UserError } from '@agent-lsp/protocol';

/** Larger files are refused: no language server wants them as a buffer, and reading them stalls. */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** What a file on disk was when its text was read: compared by stat first, by content hash after. */
export interface DiskState {
  size: number;
  mtimeNs: bigint;
  ino: bigint;
  /** sha256 of the bytes. */
  hash: string;
}

export interface DiskFile {
  text: string;
  state: DiskState;
}

function hashOf(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function missing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The text of a document on disk, read without ever blocking: only regular files (a FIFO or a
 * device would block the reader, and the broker's whole event loop with it), at most
 * MAX_DOCUMENT_BYTES, asynchronously. Undefined when there is no file; a UserError when there is
 * one that cannot be a document.
 */
export async function readDiskText(path: string, label = path): Promise<DiskFile | undefined> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer before fstat runs.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if (missing(err)) return undefined;
    throw new UserError('file_not_found', `Could not read ${label}: ${(err as Error).message}`);
  }
  try {
    const st = await handle.stat({ bigint: true });
    if (!st.isFile()) throw new UserError('invalid_argument', `${label} is not a regular file (a directory, FIFO, socket or device cannot be opened as a document).`);
    if (st.size > BigInt(MAX_DOCUMENT_BYTES)) {
      throw new UserError('invalid_argument', `${label} is ${st.size} bytes; agent-lsp opens documents of at most ${MAX_DOCUMENT_BYTES} bytes (64 MiB).`);
    }
    const data = await handle.readFile();
    return { text: data.toString('utf8'), state: { size: data.length, mtimeNs: st.mtimeNs, ino: st.ino, hash: hashOf(data) } };
  } finally {
    await handle.close();
  }
}

/** Whether the file at `path` may differ from `state` (cheap: a stat, no read). */
export async function mayHaveChanged(path: string, state: DiskState): Promise<boolean> {
  try {
    const st = await stat(path, { bigint: true });
    return !st.isFile() || st.size !== BigInt(state.size) || st.mtimeNs !== state.mtimeNs || st.ino !== state.ino;
  } catch {
    return true;
  }
}

/**
 * mayHaveChanged without a thread-pool round trip (and `state` undefined for a file that was not
 * there when read), for a check on the path of every request (the
 * broker's documents nobody holds): one stat costs microseconds in-process, while an async one
 * waits for a pool thread, which on a busy machine is the larger part of the broker hop.
 */
export function mayHaveChangedSync(path: string, state: DiskState | undefined): boolean {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    // `undefined`: the text was read from a file that was not there; changed if one is there now.
    if (state === undefined) return st?.isFile() === true;
    return st === undefined || !st.isFile() || st.size !== BigInt(state.size) || st.mtimeNs !== state.mtimeNs || st.ino !== state.ino;
  } catch {
    return true;
  }
}

/**
 * readDiskText for callers that cannot wait (position conversion, readiness seeds, scans in the
 * front): the same rules — a regular file only, checked by stat before anything opens it (a FIFO
 * never blocks), at most MAX_DOCUMENT_BYTES. Undefined for a missing file or one that cannot be a
 * document.
 */
export function readRegularFileSync(path: string): DiskFile | undefined {
  const read = readRegularFileBytesSync(path);
  return read && { text: read.data.toString('utf8'), state: { size: read.data.length, mtimeNs: read.st.mtimeNs, ino: read.st.ino, hash: hashOf(read.data) } };
}

/**
 * Just the text of readRegularFileSync, under the same rules, without hashing it: converting
 * positions reads every file an answer names (a thousand references on the stdlib: a few hundred
 * files), where a sha256 of each was work for nothing.
 */
export function readRegularTextSync(path: string): string | undefined {
  try {
    // Plain numbers and no throw for a missing file: this runs for every file an answer names.
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > MAX_DOCUMENT_BYTES) return undefined;
    // Decoded while read (no Buffer in between).
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readRegularFileBytesSync(path: string): { data: Buffer; st: BigIntStats } | undefined {
  try {
    const st = statSync(path, { bigint: true });
    if (!st.isFile() || st.size > BigInt(MAX_DOCUMENT_BYTES)) return undefined;
    return { data: readFileSync(path), st };
  } catch {
    return undefined;
  }
}
