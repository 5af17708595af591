import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isWithin, UserError } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import { SessionError } from './errors.js';
import type { FileWriter } from './fileWriter.js';
import { DEFAULT_RETENTION } from './checkpointStore.js';
import { systemClock } from './determinism.js';
import type { LeftoverRecovery } from './leftoverRecovery.js';
import { currentHash } from './restore.js';
import { WorkspaceJournal } from './workspaceJournal.js';

export interface RecoverOptions {
  root: string;
  /** The state home (see stateHome). */
  home: string;
  logger: Logger;
  writer: FileWriter;
  /** When files still cannot be restored: save their old content under the journal's recovered dir and clear the record. */
  force: boolean;
}

export interface RecoverOutcome {
  root: string;
  intentPath: string;
  /** False when there was no unfinished transaction. */
  found: boolean;
  restored: string[];
  /** What the leftover recovery did (restored, kept, checkpoint), when it went through. */
  recovery?: LeftoverRecovery;
  /** With force: files left as they are, and where their old content was saved (null: the file did not exist before). */
  saved: { path: string; savedTo: string | null }[];
}

/**
 * `agent-lsp recover`: finishes the rollback of a transaction whose restore failed (or whose front
 * died), under the workspace's writer lock (so never that of a transaction still running). Without force a file that still cannot be restored
 * fails it with the same message; with force the record is cleared after the old content of every
 * such file is saved where the outcome says, so nothing is lost.
 */
export async function recoverWorkspaceJournal(options: RecoverOptions): Promise<RecoverOutcome> {
  let root: string;
  try {
    root = realpathSync(options.root);
  } catch {
    throw new UserError('invalid_argument', `--root ${options.root} does not exist.`);
  }
  const journal = new WorkspaceJournal(root, options.home, options.logger);
  const outcome: RecoverOutcome = { root, intentPath: journal.intent.path, found: false, restored: [], saved: [] };
  if (!journal.intent.read()) return outcome;
  // A transaction in progress holds the lock: once it is ours, an intent left is one that ended
  // without being rolled back (its restore failed, or its front died), whoever wrote it.
  const lease = await journal.lock.acquire();
  try {
    const intent = journal.intent.read();
    if (!intent) return outcome;
    outcome.found = true;
    try {
      const recovery = await journal.recoverLeftover({ writer: options.writer, clock: systemClock, retention: DEFAULT_RETENTION });
      if (recovery) {
        outcome.recovery = recovery;
        outcome.restored = recovery.restored;
      }
      return outcome;
    } catch (err) {
      if (!options.force || !(err instanceof SessionError) || err.code !== 'restore_failed') throw err;
    }
    const dir = join(journal.recoveredDir, intent.tx);
    for (const file of intent.files) {
      if (currentHashOrMissing(file.path) === file.before) continue;
      let savedTo: string | null = null;
      if (file.before !== null) {
        savedTo = join(dir, isWithin(root, file.path) ? relative(root, file.path) : join('outside', file.path));
        mkdirSync(dirname(savedTo), { recursive: true, mode: 0o700 });
        writeFileSync(savedTo, journal.blobs.get(file.before), { mode: 0o600 });
      }
      outcome.saved.push({ path: file.path, savedTo });
    }
    journal.intent.clear();
    return outcome;
  } finally {
    await lease.release();
  }
}

/** The hash of a file now; a path that cannot be read (a directory in its place) never matches. */
function currentHashOrMissing(path: string): string | null | undefined {
  try {
    return currentHash(path);
  } catch {
    return undefined;
  }
}
