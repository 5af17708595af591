import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { SessionError } from './errors.js';

/** Writes JSON through a synced temp file and a rename: readers see the old file or the new one. */
export function writeJsonAtomic(path: string, value: unknown): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(value, null, 1) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** The parsed file, or undefined when it does not exist. Damaged content is an error, never ignored. */
export function readJson<T>(path: string): T | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(raw) as T;
  } catch (err) {
    throw new SessionError('corrupt_state', `${path} is not valid JSON (${(err as Error).message}); move it aside to continue.`);
  }
}
