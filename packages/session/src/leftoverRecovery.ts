import type { BlobStore } from './blobStore.js';
import type { Checkpoint, CheckpointStore, Retention } from './checkpointStore.js';
import type { Clock } from './determinism.js';
import type { FileWriter } from './fileWriter.js';
import type { FileBefore, IntentRecord } from './intent.js';
import { currentHash, readCurrent } from './restore.js';

/** What recovery needs of the workspace journal (workspaceJournal.ts calls recovery, not back). */
export interface RecoveryJournal {
  readonly blobs: BlobStore;
  readonly checkpoints: CheckpointStore;
  restore(files: readonly FileBefore[], createdDirs: readonly string[], writer: FileWriter): Promise<string[]>;
}

export interface LeftoverRecoveryOptions {
  writer: FileWriter;
  clock: Clock;
  retention: Retention;
}

/** What recovering a transaction a dead front left half done did. */
export interface LeftoverRecovery {
  tx: string;
  tool: string;
  pid: number;
  /** Files put back as they were before the transaction. */
  restored: string[];
  /** Files that changed after the transaction wrote them (someone else's text): left as they are. */
  kept: string[];
  /** With kept files: the checkpoint of the transaction's view of them (before it → as they are now). */
  checkpointId?: string;
}

/**
 * Rolls back what `intent` left half done, under the writer lock, without undoing anyone else's
 * work: a file is put back only when it holds what the transaction wrote there (one holding its
 * earlier content needs nothing). A file holding anything else was written after the crash and is
 * kept; a checkpoint records it (content before the transaction → now), so rolling back to before
 * that checkpoint still brings the earlier content back: nothing is lost either way.
 * Throws restore_failed (intent left in place) when a file that should be put back cannot be.
 */
export async function recoverIntent(journal: RecoveryJournal, intent: IntentRecord, options: LeftoverRecoveryOptions): Promise<LeftoverRecovery> {
  const toRestore: FileBefore[] = [];
  const kept: { file: FileBefore; now: string | null }[] = [];
  for (const file of intent.files) {
    const now = hashOrUnreadable(file.path);
    // Unreadable (a directory in its place): the restore says why it cannot put it back.
    if (now === undefined || now === file.before || file.wrote?.includes(now)) toRestore.push(file);
    else kept.push({ file, now });
  }
  const restored = await journal.restore(toRestore, intent.created_dirs, options.writer);
  const outcome: LeftoverRecovery = { tx: intent.tx, tool: intent.tool, pid: intent.pid, restored, kept: kept.map((k) => k.file.path) };
  if (kept.length > 0) {
    const time = options.clock.now();
    const checkpoint: Checkpoint = {
      id: intent.tx,
      call_id: intent.call_id,
      tool: intent.tool,
      time: time.toISOString(),
      kind: 'write',
      // The content now goes to the blob store too, so the checkpoint can be diffed and rolled back to.
      files: kept.map(({ file }) => ({ path: file.path, before: file.before, after: keepBlob(journal, file.path) })),
    };
    journal.checkpoints.append(checkpoint, options.retention, time);
    outcome.checkpointId = checkpoint.id;
  }
  return outcome;
}

/** Words for an answer, a log line or `agent-lsp recover`: what was put back, what was kept and where its earlier content is. */
export function describeRecovery(r: LeftoverRecovery, label: (path: string) => string = (p) => p): string {
  const head = `agent-lsp rolled back ${r.tool} (${r.tx}), which a front (pid ${r.pid}) left half done`;
  const restored = r.restored.length > 0 ? `: restored ${r.restored.map(label).join(', ')}` : '';
  if (r.kept.length === 0) return `${head}${restored}.`;
  return (
    `${head}${restored}. Left as they are, because they changed after that call wrote them: ${r.kept.map(label).join(', ')}; ` +
    `checkpoint ${r.checkpointId} holds their content before the call (checkpoint_diff shows it, rollback_to with position "before" puts it back).`
  );
}

function keepBlob(journal: RecoveryJournal, path: string): string | null {
  const data = readCurrent(path);
  return data === null ? null : journal.blobs.put(data);
}

function hashOrUnreadable(path: string): string | null | undefined {
  try {
    return currentHash(path);
  } catch {
    return undefined;
  }
}
