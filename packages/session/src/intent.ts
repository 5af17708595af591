import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, writeJsonAtomic } from './jsonFile.js';

/** What a file was before a transaction touched it. `before: null` means it did not exist. */
export interface FileBefore {
  path: string;
  before: string | null;
  /** Permission bits it had, to restore them too. */
  mode?: number;
  /**
   * Every content the transaction wrote or is about to write there (hashes; null: it deletes the
   * file), recorded before the write. Recovery puts back only a file that holds one of them: any
   * other content was written by someone else after the crash, and is kept. Absent in records
   * written before it existed: then nothing is known to be the transaction's, and every changed file is kept.
   */
  wrote?: (string | null)[];
}

/**
 * Written before a transaction's first write and removed when it commits or rolls back. Finding
 * one whose process is gone means a front died mid-write: its files are put back from `files`.
 */
export interface IntentRecord {
  schema: 1;
  /** The transaction id, which is also the id of the checkpoint it commits to. */
  tx: string;
  call_id: string;
  tool: string;
  pid: number;
  started_at: string;
  files: FileBefore[];
  /** Directories the transaction created (outermost first), removed again on rollback when empty. */
  created_dirs: string[];
}

/** The intent record of one workspace state dir. */
export class IntentFile {
  readonly path: string;

  constructor(dir: string) {
    this.path = join(dir, 'intent.json');
  }

  read(): IntentRecord | undefined {
    return readJson<IntentRecord>(this.path);
  }

  write(record: IntentRecord): void {
    writeJsonAtomic(this.path, record);
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}

/**
 * True when the process that wrote an intent is still running: then the intent belongs to a
 * transaction in progress (this process's own included), not to a dead front.
 */
export function writerAlive(record: IntentRecord): boolean {
  if (record.pid === process.pid) return true;
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
