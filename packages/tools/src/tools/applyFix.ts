import { z } from 'zod';
import type { CodeAction, Command, Range } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { currentHash } from '@agent-lsp/session';
import { isNotReady, openReadyDocument, rangeIn, type ReadyDocument } from '../project/documentQuery.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { oneBased, readinessInput } from '../catalog/schemas.js';
import { checkCommandAllowed } from '../project/serverCommands.js';
import { defineTool, WRITES, type ToolContext } from '../catalog/toolDefinition.js';
import { committed, previewChanges, writeOutput, writeText } from '../output/writeResult.js';
import { commandOf, isCommand, needsResolve, planEdit, resolved } from '../codeActions/actionEdit.js';
import { kindMatches, offeredActions, wholeDocument } from '../codeActions/actionList.js';
import { actionStoreOf, type StoredAction } from '../codeActions/actionStore.js';

const TS_APPLY_REFACTORING = '_typescript.applyRefactoring';

/** The command an action runs after its edit, checked like execute_command's (before anything is written). */
function commandToRun(conn: LspConnection, a: CodeAction | Command): Command | undefined {
  const cmd = commandOf(a);
  if (!cmd) return undefined;
  checkCommandAllowed(conn, cmd.command, cmd.arguments ?? []);
  // tsserver's "Move to a new file" has typescript-language-server create the file straight on disk before its edit.
  if (cmd.command === TS_APPLY_REFACTORING && !isCommand(a) && a.kind?.startsWith('refactor.move')) {
    throw new UserError('not_supported', `agent-lsp does not apply "${a.title}" on ${conn.server.displayName}: it creates files straight on disk, outside any transaction. Nothing was written.`);
  }
  return cmd;
}

interface RangeArgs {
  start_line?: number | undefined;
  start_column?: number | undefined;
  end_line?: number | undefined;
  end_column?: number | undefined;
}

function rangeOf(doc: ReadyDocument, args: RangeArgs): Range {
  const parts = [args.start_line, args.start_column, args.end_line, args.end_column];
  const given = parts.filter((p) => p !== undefined).length;
  if (given === 0) return wholeDocument(doc.handle.doc.text);
  if (given !== 4) throw new UserError('invalid_argument', 'A range needs all of start_line, start_column, end_line and end_column (1-based), or none for the whole file.');
  return rangeIn(doc, args as Required<RangeArgs>);
}

/** The one action titled `title` (exact), else the one of `kind` (a preferred one when several). */
function choose(actions: readonly (CodeAction | Command)[], label: string, title: string | undefined, kind: string | undefined): CodeAction | Command {
  const offered = actions.length ? `Offered: ${actions.map((a) => `"${a.title}"${!isCommand(a) && a.kind ? ` [${a.kind}]` : ''}`).join(', ')}.` : 'The server offered none there.';
  if (title !== undefined) {
    const match = actions.find((a) => a.title === title);
    if (!match) throw new UserError('pattern_not_found', `No code action titled "${title}" for ${label} in that range. ${offered} Nothing was written.`);
    return match;
  }
  const ofKind = actions.filter((a) => kindMatches(a, kind as string));
  const preferred = ofKind.filter((a) => !isCommand(a) && a.isPreferred);
  const pick = ofKind.length === 1 ? ofKind[0] : preferred.length === 1 ? preferred[0] : undefined;
  if (pick) return pick;
  if (ofKind.length === 0) throw new UserError('pattern_not_found', `No code action of kind ${kind as string} for ${label} in that range. ${offered} Nothing was written.`);
  throw new UserError('pattern_ambiguous', `${ofKind.length} code actions of kind ${kind as string} for ${label}: ${ofKind.map((a) => `"${a.title}"`).join(', ')}. Pass title (or an action_id from suggest_fixes). Nothing was written.`);
}

async function actionFromArgs(ctx: ToolContext, args: RangeArgs & { file_path?: string | undefined; title?: string | undefined; kind?: string | undefined; wait_for_ready?: boolean | undefined; ready_timeout_seconds?: number | undefined }): Promise<StoredAction | NotReadyResult> {
  if (args.file_path === undefined || (args.title === undefined) === (args.kind === undefined)) {
    throw new UserError('invalid_argument', 'Pass action_id (from suggest_fixes), or file_path with title or kind (and optionally a range). Nothing was written.');
  }
  const doc = await openReadyDocument(ctx, { ...args, file_path: args.file_path });
  if (isNotReady(doc)) return doc;
  const { conn, path } = doc.handle;
  const { actions } = await offeredActions(ctx, doc, rangeOf(doc, args), args.kind);
  const action = choose(actions, doc.label, args.title, args.kind);
  return { id: '', conn, path, action, hashes: new Map([[path, currentHash(path)]]) };
}

export const applyFix = defineTool({
  name: 'apply_fix',
  title: 'Apply a fix (code action)',
  description: 'Applies a code action from suggest_fixes (action_id), or by file_path + title or kind, as one checkpointed transaction.',
  group: 'editing',
  input: () => ({
    action_id: z.string().optional().describe('From suggest_fixes.'),
    file_path: z.string().optional().describe('Or: the file, with title or kind.'),
    title: z.string().optional().describe('Exact action title.'),
    kind: z.string().optional().describe('e.g. source.organizeImports.'),
    start_line: oneBased('start_line').optional().describe('Range (default: whole file).'),
    start_column: oneBased('start_column').optional(),
    end_line: oneBased('end_line').optional(),
    end_column: oneBased('end_column').optional(),
    dry_run: z.boolean().optional().describe('Preview only.'),
    ...readinessInput,
  }),
  output: () => ({ ...writeOutput, title: z.string().optional().describe('The action applied.'), command: z.string().optional(), result: z.unknown().optional().describe('What the command answered.') }),
  annotations: WRITES,
  async handler(args, ctx) {
    let stored: StoredAction | NotReadyResult;
    if (args.action_id !== undefined) {
      if (args.file_path !== undefined || args.title !== undefined || args.kind !== undefined) {
        throw new UserError('invalid_argument', 'Pass either action_id, or file_path with title or kind, not both. Nothing was written.');
      }
      await ctx.workspace.ensureRoots();
      stored = actionStoreOf(ctx.ledger).take(args.action_id, (p) => ctx.workspace.display(p));
    } else {
      stored = await actionFromArgs(ctx, args);
    }
    if (isNotReady(stored)) return stored;
    const { conn } = stored;
    // The server computes resolves and commands on its open copy: open again (and in step with the disk) if it was closed.
    await ctx.workspace.openDocument(stored.path);
    const action = await resolved(conn, stored.action, ctx.signal);
    const edit = isCommand(action) ? undefined : action.edit;
    const command = commandToRun(conn, action);
    if (!edit && !command) {
      const why = needsResolve(conn, stored.action) ? ' even after codeAction/resolve' : '';
      throw new UserError('not_supported', `"${action.title}" has no edit${why} and no command agent-lsp needs to run: there is nothing to apply. Nothing was written.`);
    }
    const named = { title: action.title, ...(command ? { command: command.command } : {}) };
    if (args.dry_run === true) return { ...previewChanges(ctx, edit ? planEdit(ctx, edit) : []), ...named };
    if (!command) {
      const result = await ctx.ledger.transactions.applyPlan(ctx.call, ctx.signal, (plan) => plan.applyWorkspaceEdit(edit ?? {}));
      return { ...committed(ctx, result.checkpoint), ...named };
    }
    // Edit first, then the command, as LSP orders them; the server's workspace/applyEdit lands in the same transaction.
    const result = await ctx.ledger.transactions.withServerEdits(ctx.call, ctx.signal, async (tx) => {
      if (edit) {
        const changes = planEdit(ctx, edit);
        await tx.write(changes);
        await ctx.workspace.syncFromDisk(changes.map((c) => c.path), { force: true });
      } else {
        await ctx.workspace.syncFromDisk();
      }
      return conn.request<unknown>('workspace/executeCommand', { command: command.command, arguments: command.arguments ?? [] }, { signal: ctx.signal });
    });
    return { ...committed(ctx, result.checkpoint), ...named, result: result.value ?? null };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const then = r.command ? (r.dry_run ? ` (then would run ${r.command}; its edits are not previewed)` : ` (then ran ${r.command})`) : '';
    const head = r.title ? `${r.dry_run ? 'Would apply' : 'Applied'} "${r.title}"${then}.` : '';
    return `${head}\n${writeText(r)}`.trim();
  },
});

export const fixTools = [applyFix];
