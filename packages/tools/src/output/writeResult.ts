import { z } from 'zod';
import { readCurrent, unifiedDiff, type Checkpoint, type EditPlan, type FileChange } from '@agent-lsp/session';
import { readyOutput } from '../catalog/schemas.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/** Past this, the diff in structured content is cut (agents' clients cap a result at about 25k tokens). */
const MAX_DIFF_CHARS = 20_000;
/** The text form shows the diff's first hunks up to this much; the rest is in structured content. */
const TEXT_DIFF_CHARS = 4_000;

export const fileChangeOut = z.object({
  file: z.string().describe('Root-relative path (absolute outside the workspace).'),
  change: z.enum(['modified', 'created', 'deleted']),
});
export type FileChangeOut = z.infer<typeof fileChangeOut>;

/** The output of every tool that writes files. */
export const writeOutput = {
  ...readyOutput,
  dry_run: z.boolean().optional().describe('true when nothing was written because the call asked for a dry run (or for edits only).'),
  applied: z.boolean().optional().describe('true when files were written.'),
  checkpoint_id: z.string().optional().describe('The checkpoint this write left (for checkpoint_diff, rollback_to).'),
  files: z.array(fileChangeOut).optional().describe('The files changed (or that would change).'),
  diff: z.string().optional().describe('Unified diff of the change.'),
  diff_truncated: z.boolean().optional().describe('true when the diff was cut to fit a result.'),
};

export interface WriteOut {
  ready: true;
  dry_run: boolean;
  applied: boolean;
  checkpoint_id?: string;
  files: FileChangeOut[];
  diff: string;
  diff_truncated?: boolean;
}

export function changeKind(before: unknown, after: unknown): FileChangeOut['change'] {
  return before === null ? 'created' : after === null ? 'deleted' : 'modified';
}

function withDiff(files: FileChangeOut[], diff: string): Pick<WriteOut, 'files' | 'diff' | 'diff_truncated'> {
  return { files, diff: diff.slice(0, MAX_DIFF_CHARS), ...(diff.length > MAX_DIFF_CHARS ? { diff_truncated: true } : {}) };
}

/** What planned changes would do, measured against the disk now. Writes nothing. */
export function previewChanges(ctx: ToolContext, changes: readonly FileChange[]): WriteOut {
  const files: FileChangeOut[] = [];
  let diff = '';
  for (const c of changes) {
    const before = readCurrent(c.path);
    const label = ctx.workspace.display(c.path);
    files.push({ file: label, change: changeKind(before, c.content) });
    diff += unifiedDiff(label, before, c.content);
  }
  return { ready: true, dry_run: true, applied: false, ...withDiff(files, diff) };
}

/** What a committed write changed (nothing when it left no checkpoint). */
export function committed(ctx: ToolContext, checkpoint: Checkpoint | undefined): WriteOut {
  if (!checkpoint) return { ready: true, dry_run: false, applied: false, files: [], diff: '' };
  const files = checkpoint.files.map((f) => ({ file: ctx.workspace.display(f.path), change: changeKind(f.before, f.after) }));
  return { ready: true, dry_run: false, applied: true, checkpoint_id: checkpoint.id, ...withDiff(files, ctx.ledger.checkpoints.diff(checkpoint.id).diff) };
}

/** Plans with `build`; then previews (dry run) or writes the plan as one transaction. */
export async function writeOrPreview(ctx: ToolContext, dryRun: boolean, build: (plan: EditPlan) => void | Promise<void>): Promise<WriteOut> {
  if (dryRun) {
    const plan = ctx.ledger.transactions.newPlan();
    await build(plan);
    return previewChanges(ctx, plan.changes());
  }
  const result = await ctx.ledger.transactions.applyPlan(ctx.call, ctx.signal, build);
  return committed(ctx, result.checkpoint);
}

/** The diff's first hunks (whole hunks, at least one) within `max` characters, and how many lines were left out. */
export function firstHunks(diff: string, max: number): { shown: string; omittedLines: number } {
  if (diff.length <= max) return { shown: diff, omittedLines: 0 };
  const starts = [...diff.matchAll(/^(?:@@|--- )/gm)].map((m) => m.index);
  let cut = starts.filter((i) => i > 0 && i <= max).pop() ?? diff.indexOf('\n@@', 1) + 1;
  if (cut <= 0) cut = Math.min(diff.length, max);
  const shown = diff.slice(0, cut);
  return { shown, omittedLines: diff.slice(cut).split('\n').filter(Boolean).length };
}

const FILES_LISTED = 20;

export function writeText(r: Partial<Omit<WriteOut, 'ready'>>): string {
  const files = r.files ?? [];
  if (files.length === 0) return r.dry_run ? 'Dry run: nothing would change.' : 'Nothing changed: the files already read that way.';
  const more = files.length > FILES_LISTED ? `, +${files.length - FILES_LISTED} more` : '';
  const list = files.slice(0, FILES_LISTED).map((f) => `${f.file} (${f.change})`).join(', ') + more;
  const head = r.dry_run
    ? `Dry run, nothing written. Would change ${files.length} file(s): ${list}`
    : `Changed ${files.length} file(s): ${list}. Checkpoint ${r.checkpoint_id ?? '?'} (undo_last or rollback_to undoes it).`;
  const { shown, omittedLines } = firstHunks(r.diff ?? '', TEXT_DIFF_CHARS);
  const rest = omittedLines || r.diff_truncated ? `\n… ${omittedLines ? `${omittedLines} more diff line(s) in structured content \`diff\`` : ''}${r.diff_truncated ? `${omittedLines ? '; ' : ''}the full diff: ${r.checkpoint_id ? 'checkpoint_diff' : 'too long for one result (see the edits)'}` : ''}` : '';
  return `${head}\n${shown.trimEnd()}${rest}`.trimEnd();
}
