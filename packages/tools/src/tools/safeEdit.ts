import { z } from 'zod';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fromLspRange, splitLines, uriToPath, UserError } from '@agent-lsp/protocol';
import { applySessionPatch, minimalEdits, readCurrent, sessionPatch, type FileChange, type SimulationSession } from '@agent-lsp/session';
import { lspRange } from '../catalog/lspSchemas.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { evaluationOut, evaluationOutput, evaluationText } from '../output/simulationOutput.js';
import { defineTool, WRITES, type ToolContext } from '../catalog/toolDefinition.js';
import { committed, writeOutput, writeText } from '../output/writeResult.js';
import { evaluationInput, scopeOf } from './simulationArgs.js';

/** Text edits only (the form speculative sessions take), checked in the handler: the full schema would weigh on tools/list. */
const textEdits = z.record(z.string(), z.array(z.object({ range: lspRange, newText: z.string() })));

function checkedEdit(edit: { changes: Record<string, unknown[]> }): WorkspaceEdit {
  const parsed = textEdits.safeParse(edit.changes);
  if (parsed.success) return { changes: parsed.data };
  const issue = parsed.error.issues[0];
  throw new UserError('invalid_argument', `workspace_edit.changes${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}. Each edit is {range: {start: {line, character}, end: {line, character}}, newText} (0-based lines, UTF-16 characters). Nothing was written.`);
}

/** Refuses edits whose positions lie outside the file (a text document would silently clamp them). */
function checkRanges(ctx: ToolContext, uri: string, edits: readonly TextEdit[]): void {
  const path = ctx.workspace.resolveFile(uriToPath(uri) ?? uri);
  const lines = splitLines((readCurrent(path) ?? Buffer.alloc(0)).toString('utf8'));
  for (const e of edits) {
    for (const p of [e.range.start, e.range.end]) {
      const line = lines[p.line];
      if (line === undefined || p.character > line.length) {
        throw new UserError('invalid_position', `workspace_edit: position ${p.line}:${p.character} (0-based line:UTF-16 character) is past the end of ${ctx.workspace.display(path)}, which has ${lines.length} line(s). Nothing was written.`);
      }
    }
  }
}

/** The edit as planned on the disk now; every path checked against the roots. Writes nothing. */
function plannedChanges(ctx: ToolContext, args: { file_path?: string | undefined; old_text?: string | undefined; new_text?: string | undefined; workspace_edit?: { changes: Record<string, unknown[]> } | undefined }): FileChange[] {
  const textForm = args.file_path !== undefined || args.old_text !== undefined || args.new_text !== undefined;
  if (textForm === (args.workspace_edit !== undefined)) throw new UserError('invalid_argument', 'Pass either workspace_edit, or file_path with old_text and new_text.');
  if (textForm && (args.file_path === undefined || args.old_text === undefined || args.new_text === undefined)) {
    throw new UserError('invalid_argument', 'file_path, old_text and new_text go together: pass all three.');
  }
  const plan = ctx.ledger.transactions.newPlan();
  if (args.workspace_edit) {
    const edit = checkedEdit(args.workspace_edit);
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) checkRanges(ctx, uri, edits);
    plan.applyWorkspaceEdit(edit);
  }
  else plan.replaceText(args.file_path as string, args.old_text as string, args.new_text as string);
  return plan.changes();
}

/** Puts the planned texts into the session as the fewest whole-line edits (so unchanged lines keep their diagnostics' identity). */
async function simulate(session: SimulationSession, changes: readonly FileChange[], before: (path: string) => string): Promise<void> {
  for (const c of changes) {
    const old = before(c.path);
    // Last edit first: the earlier ones' ranges stay where they were.
    for (const e of minimalEdits(old, (c.content as Buffer).toString('utf8')).reverse()) {
      await session.edit({ path: c.path, range: fromLspRange(old, e.range), newText: e.newText });
    }
  }
}

export const safeApplyEdit = defineTool({
  name: 'safe_apply_edit',
  aliases: ['safe_edit'],
  title: 'Apply an edit if it breaks nothing',
  description: 'Writes an edit (checkpointed) only if a speculative check examining every file concerned finds at most max_net_delta new errors; else lists them.',
  group: 'editing',
  concurrency: 'exclusive',
  input: () => ({
    file_path: z.string().optional().describe('With old_text and new_text.'),
    old_text: z.string().optional().describe('Occurs once in the file.'),
    new_text: z.string().optional(),
    workspace_edit: z.object({ changes: z.record(z.string(), z.array(z.unknown())) }).optional().describe('{changes: {uri: [{range, newText}]}} (LSP form).'),
    max_net_delta: z.number().optional().describe('Errors it may add (default 0).'),
    ...evaluationInput,
  }),
  output: () => ({ ...evaluationOutput, ...writeOutput, max_net_delta: z.number().optional(), refused: z.string().optional().describe('Why nothing was written.') }),
  annotations: WRITES,
  async handler(args, ctx) {
    await ctx.workspace.ensureRoots(args.file_path);
    const changes = plannedChanges(ctx, args);
    const max = args.max_net_delta ?? 0;
    if (!Number.isInteger(max)) throw new UserError('invalid_argument', `max_net_delta must be a whole number (errors the edit may add; default 0), not ${max}.`);
    if (changes.length === 0) return { ready: true, dry_run: false, applied: false, files: [], diff: '', net_delta: 0, max_net_delta: max };
    const notText = changes.filter((c) => c.content === null || readCurrent(c.path) === null);
    if (notText.length > 0) {
      throw new UserError('not_supported', `safe_apply_edit previews text edits of existing files; ${notText.map((c) => ctx.workspace.display(c.path)).join(', ')} would be created or deleted. Use apply_edit (or preview_edit first). Nothing was written.`);
    }
    const route = ctx.workspace.registry.forFileOrThrow(changes[0]?.path as string);
    const conn = await ctx.workspace.connection(route.server);
    const notReady = await awaitReady(conn, {}, ctx);
    if (notReady) return notReady;
    const session = ctx.ledger.simulations.create(route.languageId, ctx.workspace.primaryRoot as string, { workspace: ctx.workspace, conn, server: route.server });
    try {
      const label = (p: string) => ctx.workspace.display(p);
      await simulate(session, changes, (p) => (readCurrent(p) as Buffer).toString('utf8'));
      const { scope, timeoutMs } = scopeOf(args);
      const e = await session.evaluate(scope, timeoutMs);
      // The evaluation's per-file settle report is left out: `files` here are the files written.
      const { files: _settled, ...evaluation } = evaluationOut(ctx, e);
      const judged = { ...evaluation, max_net_delta: max };
      // Written only on the strength of every file concerned: one not examined (not settled, past
      // the budget, or at file scope a file naming a changed declaration) could hold the breakage.
      if (e.netDelta > max || e.confidence !== 'high') {
        const refused =
          e.netDelta > max
            ? `it would change the error count by ${e.netDelta > 0 ? '+' : ''}${e.netDelta}, more than max_net_delta ${max}`
            : e.notExamined > 0
              ? `${e.notExamined} file(s) concerned were not examined${e.timeout ? ` (diagnostics did not settle within ${timeoutMs} ms: raise timeout_ms)` : ''}${e.scope === 'file' && e.dependents?.notExamined ? ' (other files use a declaration it changes: pass scope: "workspace")' : ''}, so the edit could not be judged safe`
              : 'the evaluation is partial (see notes), so the edit could not be judged safe';
        return { ready: true, dry_run: false, applied: false, files: [], diff: '', ...judged, refused };
      }
      const files = session.changedFiles();
      const checkpoint = await applySessionPatch(ctx.ledger.transactions, ctx.call, ctx.signal, files, sessionPatch(files, label), label);
      return { ...judged, ...committed(ctx, checkpoint) };
    } finally {
      ctx.ledger.simulations.destroy(session.id);
    }
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const judged = evaluationText({ ...r, files: undefined });
    if (r.refused) return `Refused, nothing written: ${r.refused}.\n${judged}`;
    return `${writeText(r)}\n${judged}`;
  },
});
