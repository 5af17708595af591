import { UserError } from '@agent-lsp/protocol';
import type { Checkpoint } from './checkpointStore.js';
import { currentHash } from './restore.js';
import type { RollbackPosition } from './checkpointStore.js';
import { planRollback, type RollbackFile } from './rollbackPlan.js';
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
  /** Over HTTP: plan over every session's checkpoints, not only this session's (see CheckpointService). */
  allSessions?: boolean | undefined;
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

/**
 * Listing, diffing and rolling back checkpoints; rollbacks are transactions with checkpoints of their own.
 * An HTTP session lists, undoes and plans rollbacks over its own checkpoints only, so one agent's
 * undo_last never reverts another's write; every session's are seen with `allSessions`, and a
 * checkpoint named by id is found whoever made it (both are explicit). A stdio front sees them all.
 */
export class CheckpointService {
  constructor(private readonly tx: TransactionManager) {}

  /** Newest first. */
  list(rootDir?: string, allSessions = false): { journal: WorkspaceJournal; checkpoints: Checkpoint[] } {
    const journal = this.tx.journal(rootDir);
    return { journal, checkpoints: this.visible(journal.checkpoints.all(), allSessions).reverse() };
  }

  /** The checkpoints this front plans over: its own session's, or all. */
  private visible(all: Checkpoint[], allSessions: boolean): Checkpoint[] {
    const agent = this.tx.agent;
    return agent === undefined || allSessions ? all : all.filter((c) => c.agent === agent);
  }

  /** What a rollback plans over: the visible checkpoints, or all of them when it names one made elsewhere. */
  private planned(all: Checkpoint[], req: RollbackRequest): Checkpoint[] {
    const rows = this.visible(all, req.allSessions === true);
    return req.checkpointId !== undefined && !rows.some((c) => c.id === req.checkpointId) ? all : rows;
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
      if (!newest) {
        const whose = rows.length < journal.checkpoints.all().length ? ' made by this session (all_sessions: true undoes the newest of any session)' : '';
        throw new UserError('invalid_argument', `There is nothing to undo: no checkpoint${whose} in ${journal.root}.`);
      }
      return newest.id;
    };
    if (req.dryRun) {
      const rows = this.planned(journal.checkpoints.all(), req);
      const plan = planRollback(rows, targetId(rows), req.position, currentHash);
      return this.outcome(journal, plan.target, req, plan.files, plan.undone, undefined);
    }
    const result = await this.tx.transact(call, { signal: req.signal, rootDir: req.rootDir, kind: 'rollback' }, async (tx, j) => {
      const rows = this.planned(j.checkpoints.all(), req);
      const plan = planRollback(rows, targetId(rows), req.position, currentHash);
      if (plan.conflicts.length > 0 && !req.force) {
        const names = plan.conflicts.map((f) => this.tx.label(j, f.path)).join(', ');
        const by = this.tx.agent !== undefined && req.allSessions !== true ? ' (or by another session)' : '';
        throw new UserError('conflict', `Not rolled back: ${names} changed outside agent-lsp${by} since its last checkpoint, and a rollback would overwrite that. Look at the file(s), then call again with force: true to overwrite, or dry_run: true to see the plan. Nothing was changed.`);
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
