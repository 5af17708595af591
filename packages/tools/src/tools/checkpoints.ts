import { z } from 'zod';
import { CHECKPOINT_KINDS, RESTORE_ACTIONS, ROLLBACK_POSITIONS, type Checkpoint, type RollbackOutcome, type RollbackPosition, type WorkspaceJournal } from '@agent-lsp/session';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { pagingInput, pagingOutput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY, WRITES, type ToolContext } from '../catalog/toolDefinition.js';
import { changeKind, fileChangeOut } from '../output/writeResult.js';

const NO_ROOT = 'Call start_lsp with root_dir first, or pass root_dir.';

const rootInput = {
  root_dir: z.string().optional().describe('Default: the current workspace.'),
};

/** Over HTTP each session sees its own checkpoints (docs/http.md); this crosses sessions. */
const allSessionsInput = {
  all_sessions: z.boolean().optional().describe("HTTP: every session's checkpoints."),
};

const checkpointOut = z.object({
  id: z.string(),
  call_id: z.string(),
  tool: z.string(),
  time: z.string().describe('ISO 8601.'),
  kind: z.enum(CHECKPOINT_KINDS),
  files: z.array(fileChangeOut),
  target: z.object({ checkpoint_id: z.string(), position: z.enum(ROLLBACK_POSITIONS) }).optional().describe('For rollbacks: what they rolled back to.'),
  session: z.string().optional().describe('The HTTP session that made it.'),
});
type CheckpointOut = z.infer<typeof checkpointOut>;

function describeCheckpoint(ctx: ToolContext, journal: WorkspaceJournal, c: Checkpoint): CheckpointOut {
  const out: CheckpointOut = {
    id: c.id,
    call_id: c.call_id,
    tool: c.tool,
    time: c.time,
    kind: c.kind,
    files: c.files.map((f) => ({ file: ctx.ledger.transactions.label(journal, f.path), change: changeKind(f.before, f.after) })),
  };
  if (c.target) out.target = c.target;
  if (c.agent !== undefined) out.session = c.agent;
  return out;
}

function checkpointLine(c: CheckpointOut): string {
  const what = c.target ? ` → ${c.target.position} ${c.target.checkpoint_id}` : '';
  const by = c.session !== undefined ? ` (${c.session})` : '';
  return `${c.id} ${c.time} ${c.tool}${by}${what}: ${c.files.map((f) => `${f.file} (${f.change})`).join(', ')}`;
}

export const listCheckpoints = defineTool({
  name: 'list_checkpoints',
  title: 'List checkpoints',
  description: 'The checkpoints of this workspace\'s writes, newest first.',
  group: 'editing',
  input: () => ({ ...rootInput, ...allSessionsInput, ...pagingInput }),
  output: () => ({ ...readyOutput, ...pagingOutput, root: z.string().optional(), checkpoints: z.array(checkpointOut).optional() }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    if (args.root_dir === undefined) await ctx.workspace.ensureRoots(undefined, NO_ROOT);
    const { journal, checkpoints } = ctx.ledger.checkpoints.list(args.root_dir, args.all_sessions === true);
    ctx.call.noteRoot(journal.root);
    const p = page(checkpoints.map((c) => describeCheckpoint(ctx, journal, c)), args.offset, args.limit, 50);
    return { ready: true, root: journal.root, ...pageFields(p), checkpoints: p.items };
  },
  text: (r) => ((r.total ?? 0) === 0 ? `No checkpoints in ${r.root}.` : `${pageHeader(r, 'checkpoint(s)')}\n${(r.checkpoints ?? []).map(checkpointLine).join('\n')}`),
});

export const checkpointDiff = defineTool({
  name: 'checkpoint_diff',
  title: 'Diff of a checkpoint',
  description: 'The diff of what one checkpointed call changed.',
  group: 'editing',
  input: () => ({ checkpoint_id: z.string().min(1).describe('From list_checkpoints.'), ...rootInput }),
  output: () => ({ ...readyOutput, checkpoint: checkpointOut.optional(), diff: z.string().optional() }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    if (args.root_dir === undefined) await ctx.workspace.ensureRoots(undefined, NO_ROOT);
    const { journal, checkpoint, diff } = ctx.ledger.checkpoints.diff(args.checkpoint_id, args.root_dir);
    ctx.call.noteRoot(journal.root);
    return { ready: true, checkpoint: describeCheckpoint(ctx, journal, checkpoint), diff };
  },
  text: (r) => `${r.checkpoint ? checkpointLine(r.checkpoint) : ''}\n${r.diff ?? ''}`.trimEnd(),
});

const rollbackInput = {
  dry_run: z.boolean().optional().describe('Write nothing.'),
  force: z.boolean().optional().describe('Overwrite files changed outside agent-lsp.'),
  ...rootInput,
  ...allSessionsInput,
};

const rollbackOutput = {
  ...readyOutput,
  root: z.string().optional(),
  target: checkpointOut.optional().describe('The checkpoint rolled back to (or undone).'),
  position: z.enum(ROLLBACK_POSITIONS).optional(),
  dry_run: z.boolean().optional(),
  files: z
    .array(z.object({ file: z.string(), action: z.enum(RESTORE_ACTIONS), changed_outside: z.boolean().describe('Changed outside agent-lsp since its last checkpoint.') }))
    .optional()
    .describe('Files set back (or that would be).'),
  undone: z.array(z.string()).optional().describe('Checkpoints whose effects are undone, oldest first.'),
  checkpoint_id: z.string().optional().describe('The rollback\'s own checkpoint (undo_last undoes it).'),
};

function rollbackResult(ctx: ToolContext, o: RollbackOutcome) {
  const journal = ctx.ledger.transactions.journal(o.root);
  return {
    ready: true,
    root: o.root,
    target: describeCheckpoint(ctx, journal, o.target),
    position: o.position,
    dry_run: o.dry_run,
    files: o.files,
    undone: o.undone,
    ...(o.checkpoint ? { checkpoint_id: o.checkpoint.id } : {}),
  };
}

function rollbackText(r: { target?: CheckpointOut | undefined; position?: string | undefined; dry_run?: boolean | undefined; files?: { file: string; action: string; changed_outside: boolean }[] | undefined; checkpoint_id?: string | undefined }): string {
  const where = `${r.position ?? 'before'} ${r.target?.id ?? '?'} (${r.target?.tool ?? '?'})`;
  const files = r.files ?? [];
  if (files.length === 0) return `Nothing to do: the files are already as they were ${where}.`;
  const list = files.map((f) => `${f.file} (${f.action}${f.changed_outside ? ', changed outside agent-lsp' : ''})`).join(', ');
  if (r.dry_run) return `Dry run, nothing written. Rolling back to ${where} would change ${files.length} file(s): ${list}`;
  return `Rolled back to ${where}: ${files.length} file(s): ${list}. Checkpoint ${r.checkpoint_id ?? '?'} (undo_last undoes this rollback).`;
}

/** rollback_to and undo_last: the same rollback, with or without a checkpoint to aim at. */
async function rollback(
  ctx: ToolContext,
  args: { dry_run?: boolean | undefined; force?: boolean | undefined; root_dir?: string | undefined; all_sessions?: boolean | undefined },
  target: { checkpointId?: string; position: RollbackPosition },
) {
  if (args.root_dir === undefined) await ctx.workspace.ensureRoots(undefined, NO_ROOT);
  const outcome = await ctx.ledger.checkpoints.rollback(ctx.call, {
    ...target,
    dryRun: args.dry_run === true,
    force: args.force === true,
    rootDir: args.root_dir,
    signal: ctx.signal,
    allSessions: args.all_sessions === true,
  });
  return rollbackResult(ctx, outcome);
}

export const rollbackTo = defineTool({
  name: 'rollback_to',
  title: 'Roll back to a checkpoint',
  description: 'Restores the files a checkpoint (and later ones) touched. Refuses if one changed elsewhere, unless force.',
  group: 'editing',
  input: () => ({
    checkpoint_id: z.string().min(1).describe('From list_checkpoints.'),
    position: z.enum(ROLLBACK_POSITIONS).optional().describe('Before that call (default) or after it.'),
    ...rollbackInput,
  }),
  output: () => rollbackOutput,
  annotations: { ...WRITES, idempotentHint: true },
  handler: (args, ctx) => rollback(ctx, args, { checkpointId: args.checkpoint_id, position: args.position ?? 'before' }),
  text: rollbackText,
});

export const undoLast = defineTool({
  name: 'undo_last',
  title: 'Undo the last write',
  description: 'Rolls back the newest checkpoint. Refuses if a file changed elsewhere, unless force.',
  group: 'editing',
  input: () => rollbackInput,
  output: () => rollbackOutput,
  annotations: WRITES,
  // No checkpoint id: the newest checkpoint, whatever made it (a rollback included); over HTTP, of this session.
  handler: (args, ctx) => rollback(ctx, args, { position: 'before' }),
  text: rollbackText,
});

export const checkpointTools = [listCheckpoints, checkpointDiff, rollbackTo, undoLast];
