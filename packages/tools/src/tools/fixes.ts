import { z } from 'zod';
import { currentHash } from '@agent-lsp/session';
import { isNotReady, openReadyDocument, rangeIn } from '../project/documentQuery.js';
import { diagnosticMessage, diagnosticText } from '../output/diagnosticText.js';
import { PositionMapper } from '../output/locations.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { diagnostic, rangeInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY, type ToolContext } from '../catalog/toolDefinition.js';
import { commandOf, isCommand, needsResolve, planEdit, previewOf, resolved } from '../codeActions/actionEdit.js';
import { offeredActions } from '../codeActions/actionList.js';
import { actionStoreOf, type StoredAction } from '../codeActions/actionStore.js';

/** Actions whose edit comes only from codeAction/resolve, resolved per call to preview them; the rest resolve when applied. */
const RESOLVED_FOR_PREVIEW = 8;

const filePreviewOut = z.object({
  file: z.string(),
  change: z.enum(['modified', 'created', 'deleted']),
  lines: z.array(z.string()).describe('Changed lines: "-12 old", "+12 new".'),
  more_lines: z.number().optional(),
});

const actionOut = z.object({
  action_id: z.string().describe('For apply_fix; stale once a file it was computed on changes.'),
  title: z.string(),
  kind: z.string().optional(),
  is_preferred: z.boolean().optional(),
  fixes: z.array(z.string()).optional().describe('Messages of the diagnostics this action addresses.'),
  edits: z.array(filePreviewOut).optional().describe('What its edit changes, per file.'),
  command: z.string().optional().describe('A server command it runs (after its edit).'),
  needs_resolve: z.boolean().optional().describe('Its edit comes from the server when applied (apply_fix dry_run shows it).'),
  note: z.string().optional().describe('Why there is no preview.'),
});
type ActionOut = z.infer<typeof actionOut>;

/** Describes a stored action (resolving it first when asked), noting the hashes of the files its edit touches. */
async function describe(ctx: ToolContext, stored: StoredAction, resolveNow: boolean): Promise<ActionOut> {
  const store = actionStoreOf(ctx.ledger);
  if (resolveNow && needsResolve(stored.conn, stored.action)) {
    try {
      stored.action = await resolved(stored.conn, stored.action, ctx.signal);
    } catch (err) {
      ctx.logger.debug(`codeAction/resolve failed for ${stored.action.title}: ${(err as Error).message}`);
    }
  }
  const a = stored.action;
  const out: ActionOut = { action_id: stored.id, title: a.title };
  if (isCommand(a)) return { ...out, command: a.command };
  if (a.kind) out.kind = a.kind;
  if (a.isPreferred) out.is_preferred = true;
  if (a.diagnostics?.length) out.fixes = a.diagnostics.map((d) => diagnosticMessage(d.message));
  const command = commandOf(a);
  if (command) out.command = command.command;
  if (a.edit) {
    try {
      const changes = planEdit(ctx, a.edit);
      for (const c of changes) store.noteFile(stored, c.path, currentHash(c.path));
      out.edits = previewOf(ctx, changes);
    } catch (err) {
      out.note = `no preview: ${(err as Error).message}`;
    }
  } else if (needsResolve(stored.conn, a)) out.needs_resolve = true;
  return out;
}

export const suggestFixes = defineTool({
  name: 'suggest_fixes',
  title: 'Suggest fixes (code actions)',
  description: 'Quick fixes and refactorings for a range, each with an action_id for apply_fix and a preview of its edit.',
  group: 'analysis',
  input: () => ({ ...rangeInput, only: z.string().optional().describe('A kind, e.g. source.organizeImports.'), ...readinessInput }),
  output: () => ({
    ...readyOutput,
    diagnostics: z.array(diagnostic).optional(),
    actions: z.array(actionOut).optional(),
    total: z.number().optional(),
    complete: z.boolean().optional(),
    missing: z.string().optional().describe('Kinds of action this server never offers.'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri, path } = doc.handle;
    const offered = await offeredActions(ctx, doc, rangeIn(doc, args), args.only);
    const store = actionStoreOf(ctx.ledger);
    const hash = currentHash(path);
    let resolveBudget = RESOLVED_FOR_PREVIEW;
    const actions: ActionOut[] = [];
    for (const action of offered.actions) {
      const stored = store.add({ conn, path, action, hashes: new Map([[path, hash]]) });
      const resolveNow = needsResolve(conn, action) && resolveBudget-- > 0;
      actions.push(await describe(ctx, stored, resolveNow));
    }
    const mapper = new PositionMapper(ctx.workspace, conn);
    // A server without refactorings says so, rather than leave a list that looks like all there is.
    const missing = conn.server.lacks?.['refactor'];
    return { ready: true, diagnostics: offered.diagnostics.map((d) => mapper.diagnostic(uri, d)), actions, total: actions.length, complete: true, ...(missing ? { missing } : {}) };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const diags = (r.diagnostics ?? []).map((d) => `  ${diagnosticText(d)}`);
    const acts = (r.actions ?? []).map((a) => [`- [${a.action_id}] ${a.title}${a.kind ? ` [${a.kind}]` : ''}${a.is_preferred ? ' (preferred)' : ''}`, ...actionDetail(a)].join('\n'));
    return [
      diags.length ? `Diagnostics in range:\n${diags.join('\n')}` : 'No diagnostics in range.',
      acts.length ? `${acts.length} action(s) (apply_fix {action_id} applies one):\n${acts.join('\n')}` : 'No code actions offered.',
      ...(r.missing ? [`Note: ${r.missing}.`] : []),
    ].join('\n');
  },
});

function actionDetail(a: ActionOut): string[] {
  const lines: string[] = [];
  for (const e of a.edits ?? []) {
    lines.push(`    ${e.file} (${e.change})${e.lines.length ? `: ${e.lines.slice(0, 3).join(' | ')}` : ''}${e.lines.length > 3 || e.more_lines ? ` … (+${e.lines.length - Math.min(3, e.lines.length) + (e.more_lines ?? 0)} line(s))` : ''}`);
  }
  if (a.command) lines.push(`    runs ${a.command}`);
  if (a.needs_resolve) lines.push('    edit computed when applied (apply_fix dry_run previews it)');
  if (a.note) lines.push(`    ${a.note}`);
  return lines;
}
