import { UserError } from '@agent-lsp/protocol';
import type { Checkpoint } from './checkpointStore.js';
import { currentHash } from './restore.js';
import { planRollback, type RollbackFile, type RollbackPosition } from './rollbackPlan.js';
import type { ToolCall } from './toolCall.js';
import type { TransactionManager } from './transactionManager.js';
import { unifiedDiff } from './unifiedDiff.js';
import type { WorkspaceJournal } from './workspaceJournal.js';

export const RESTORE_ACTIONS = ['restore', 'recreate', 'delete'] as const;
export type RestoreAction = (typeof RESTORE_ACTIONS)[number];

export interface RollbackRequest {
  /** Undefined: the newest checkpoint (undo_last). */
  checkpointId?: string | undefined;
  position: RollbackPosition;
  dryRun: boolean;
  force: boolean;
  rootDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface RollbackFileOut {
  file: string;
  action: RestoreAction;
  changed_outside: boolean;
}

export interface RollbackOutcome {
  root: string;
  target: Checkpoint;
  position: RollbackPosition;
  dry_run: boolean;
  /** The files set back (or that would be, in a dry run). */
  files: RollbackFileOut[];
  /** Ids of the checkpoints whose effects are undone, oldest first. */
  undone: string[];
  /** The rollback's own checkpoint; undefined in a dry run or when nothing needed to change. */
  checkpoint?: Checkpoint;
}

/** Listing, diffing and rolling back checkpoints; rollbacks are transactions with checkpoints of their own. */
export class CheckpointService {
  constructor(private readonly tx: TransactionManager) {}

  /** Newest first. */
  list(rootDir?: string): { journal: WorkspaceJournal; checkpoints: Checkpoint[] } {
    const journal = this.tx.journal(rootDir);
    return { journal, checkpoints: journal.checkpoints.all().reverse() };
  }

  /** A unified diff of what one checkpoint changed. */
  diff(checkpointId: string, rootDir?: string): { journal: WorkspaceJournal; checkpoint: Checkpoint; diff: string } {
    const journal = this.tx.journal(rootDir);
    const checkpoint = journal.checkpoints.find(checkpointId);
    if (!checkpoint) throw new UserError('invalid_argument', `No checkpoint ${checkpointId} in ${journal.root}. Call list_checkpoints to see them.`);
    const get = (hash: string | null) => (hash === null ? null : journal.blobs.get(hash));
    const diff = checkpoint.files.map((f) => unifiedDiff(this.tx.label(journal, f.path), get(f.before), get(f.after))).join('');
    return { journal, checkpoint, diff };
  }

  async rollback(call: ToolCall, req: RollbackRequest): Promise<RollbackOutcome> {
    const journal = this.tx.journal(req.rootDir);
    const targetId = (rows: Checkpoint[]) => {
      if (req.checkpointId !== undefined) return req.checkpointId;
      const newest = rows[rows.length - 1];
      if (!newest) throw new UserError('invalid_argument', `There is nothing to undo: no checkpoint in ${journal.root}.`);
      return newest.id;
    };
    if (req.dryRun) {
      const all = journal.checkpoints.all();
      const plan = planRollback(all, targetId(all), req.position, currentHash);
      return this.outcome(journal, plan.target, req, plan.files, plan.undone, undefined);
    }
    const result = await this.tx.transact(call, { signal: req.signal, rootDir: req.rootDir, kind: 'rollback' }, async (tx, j) => {
      const all = j.checkpoints.all();
      const plan = planRollback(all, targetId(all), req.position, currentHash);
      if (plan.conflicts.length > 0 && !req.force) {
        const names = plan.conflicts.map((f) => this.tx.label(j, f.path)).join(', ');
        throw new UserError('conflict', `Not rolled back: ${names} changed outside agent-lsp since its last checkpoint, and a rollback would overwrite that. Look at the file(s), then call again with force: true to overwrite, or dry_run: true to see the plan. Nothing was changed.`);
      }
      tx.setTarget({ checkpoint_id: plan.target.id, position: req.position });
      await tx.write(plan.files.map((f) => ({ path: f.path, content: f.target === null ? null : j.blobs.get(f.target) })));
      return plan;
    });
    const plan = result.value;
    return this.outcome(journal, plan.target, req, plan.files, plan.undone, result.checkpoint);
  }

  private outcome(journal: WorkspaceJournal, target: Checkpoint, req: RollbackRequest, files: RollbackFile[], undone: Checkpoint[], checkpoint: Checkpoint | undefined): RollbackOutcome {
    const out: RollbackOutcome = {
      root: journal.root,
      target,
      position: req.position,
      dry_run: req.dryRun,
      files: files.map((f) => ({
        file: this.tx.label(journal, f.path),
        action: f.target === null ? 'delete' : f.current === null ? 'recreate' : 'restore',
        changed_outside: f.current !== f.expected,
      })),
      undone: undone.map((c) => c.id),
    };
    if (checkpoint) out.checkpoint = checkpoint;
    return out;
  }
}
