import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { Checkpoint } from '../checkpointStore.js';
import { readCurrent } from '../restore.js';
import type { ToolCall } from '../toolCall.js';
import type { TransactionManager } from '../transactionManager.js';
import { unifiedDiff } from '../unifiedDiff.js';
import { SimulationError } from './errors.js';
import { contentHash } from '../contentHash.js';
import type { OverlayFile } from './overlay.js';
import { minimalEdits } from './textLocation.js';

/** What a session would change: a WorkspaceEdit (minimal edits per file) and its unified diff. */
export interface SessionPatch {
  edit: WorkspaceEdit;
  diff: string;
  files: { path: string; edits: number }[];
}

export function sessionPatch(files: readonly OverlayFile[], label: (path: string) => string): SessionPatch {
  const changes: Record<string, TextEdit[]> = {};
  const out: SessionPatch['files'] = [];
  let diff = '';
  for (const f of files) {
    const edits = minimalEdits(f.baseText, f.text);
    if (edits.length === 0) continue;
    changes[f.uri] = edits;
    out.push({ path: f.path, edits: edits.length });
    diff += unifiedDiff(label(f.path), Buffer.from(f.baseText, 'utf8'), Buffer.from(f.text, 'utf8'));
  }
  return { edit: { changes }, diff, files: out };
}

/** The files whose disk text is no longer the one the session took as its baseline (or that are gone). */
export function movedOnDisk(files: readonly OverlayFile[]): OverlayFile[] {
  return files.filter((f) => {
    const now = readCurrent(f.path);
    return now === null || contentHash(now.toString('utf8')) !== f.baseHash();
  });
}

/**
 * Writes a session's patch through the transaction layer (one transaction, one checkpoint; the
 * servers' buffers follow the disk afterwards). Under the writer lock, before anything is written,
 * every file must still read as it did at the session's baseline: otherwise nothing is written.
 */
export async function applySessionPatch(
  transactions: TransactionManager,
  call: ToolCall,
  signal: AbortSignal | undefined,
  files: readonly OverlayFile[],
  patch: SessionPatch,
  label: (path: string) => string,
  /** Where each file's new text goes; by default over the file itself. */
  destination?: (path: string) => string,
): Promise<Checkpoint | undefined> {
  const result = await transactions.applyPlan(call, signal, (plan) => {
    if (destination) {
      // Copies elsewhere: the originals stay as they are, so whether they moved does not matter.
      for (const f of files) if (f.text !== f.baseText) plan.setText(destination(f.path), f.text);
      return;
    }
    const moved = movedOnDisk(files);
    if (moved.length > 0) {
      throw new SimulationError(
        'disk_changed',
        `Nothing was written: ${moved.map((f) => label(f.path)).join(', ')} changed on disk since the session took its baseline, so the session's edits may no longer fit. Discard this session and simulate again on the current files (or apply the returned patch by hand).`,
      );
    }
    plan.applyWorkspaceEdit(patch.edit);
  });
  return result.checkpoint;
}
