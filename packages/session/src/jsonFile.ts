import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '@agent-lsp/lsp';
import { SessionError } from './errors.js';

/** Writes JSON (private to the user) atomically: readers see the old file or the new one. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomicSync(path, JSON.stringify(value, null, 1) + '\n', { mode: 0o600 });
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
