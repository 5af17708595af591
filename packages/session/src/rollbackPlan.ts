import { UserError } from '@agent-lsp/protocol';
import type { Checkpoint, RollbackPosition } from './checkpointStore.js';

/** One file a rollback would set back: its hash now, what agent-lsp last left there, and the goal. */
export interface RollbackFile {
  path: string;
  current: string | null;
  /** What the newest checkpoint touching the file left; differs from `current` after an outside edit. */
  expected: string | null;
  target: string | null;
}

export interface RollbackPlan {
  target: Checkpoint;
  position: RollbackPosition;
  /** Checkpoints whose effects the rollback undoes, oldest first. */
  undone: Checkpoint[];
  /** Files that would change. */
  files: RollbackFile[];
  /** Of those, the files changed by something else than agent-lsp since its last checkpoint of them. */
  conflicts: RollbackFile[];
}

/**
 * Rolling back to "before X" sets every file X and later checkpoints touched to what it was before
 * the first of them touched it; "after X" does the same for the checkpoints after X. Pure: the
 * caller says what each file's hash is now.
 */
export function planRollback(
  checkpoints: readonly Checkpoint[],
  checkpointId: string,
  position: RollbackPosition,
  hashNow: (path: string) => string | null,
): RollbackPlan {
  const index = checkpoints.findIndex((c) => c.id === checkpointId);
  const target = checkpoints[index];
  if (!target) {
    const recent = checkpoints.slice(-5).reverse().map((c) => `${c.id} (${c.tool})`).join(', ');
    throw new UserError('invalid_argument', `No checkpoint ${checkpointId} in this workspace${recent ? `; the newest are: ${recent}` : ''}. Call list_checkpoints to see them all.`);
  }
  const undone = checkpoints.slice(position === 'before' ? index : index + 1);
  const goal = new Map<string, string | null>();
  const expected = new Map<string, string | null>();
  for (const c of undone) {
    for (const f of c.files) {
      if (!goal.has(f.path)) goal.set(f.path, f.before);
      expected.set(f.path, f.after);
    }
  }
  const files: RollbackFile[] = [];
  for (const [path, targetHash] of goal) {
    const current = hashNow(path);
    if (current === targetHash) continue;
    files.push({ path, current, expected: expected.get(path) ?? null, target: targetHash });
  }
  return { target, position, undone, files, conflicts: files.filter((f) => f.current !== f.expected) };
}
