import { z } from 'zod';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { MAX_JSON_DEPTH, nestsDeeperThan, UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument } from '../project/documentQuery.js';
import { onlyServer } from '../project/onlyServer.js';
import { checkCommandAllowed } from '../project/serverCommands.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { workspaceEditSchema } from '../catalog/lspSchemas.js';
import { readinessInput } from '../catalog/schemas.js';
import { defineTool, WRITES } from '../catalog/toolDefinition.js';
import { committed, writeOrPreview, writeOutput, writeText } from '../output/writeResult.js';

export const applyEdit = defineTool({
  name: 'apply_edit',
  title: 'Apply an edit',
  description: 'Writes a WorkspaceEdit, or file_path + old_text → new_text, as one transaction with a checkpoint.',
  group: 'editing',
  input: () => ({
    workspace_edit: workspaceEditSchema.optional(),
    file_path: z.string().optional().describe('With old_text and new_text.'),
    old_text: z.string().optional().describe('Occurs once in the file.'),
    new_text: z.string().optional().describe('Replacement.'),
    dry_run: z.boolean().optional().describe('Write nothing.'),
  }),
  output: () => writeOutput,
  annotations: WRITES,
  async handler(args, ctx) {
    const textForm = args.file_path !== undefined || args.old_text !== undefined || args.new_text !== undefined;
    if (textForm === (args.workspace_edit !== undefined)) {
      throw new UserError('invalid_argument', 'Pass either workspace_edit, or file_path with old_text and new_text.');
    }
    if (textForm && (args.file_path === undefined || args.old_text === undefined || args.new_text === undefined)) {
      throw new UserError('invalid_argument', 'file_path, old_text and new_text go together: pass all three.');
    }
    await ctx.workspace.ensureRoots(args.file_path);
    return writeOrPreview(ctx, args.dry_run === true, (plan) => {
      if (args.workspace_edit) plan.applyWorkspaceEdit(args.workspace_edit as WorkspaceEdit);
      else plan.replaceText(args.file_path as string, args.old_text as string, args.new_text as string);
    });
  },
  text: (r) => writeText(r),
});

export const executeCommand = defineTool({
  name: 'execute_command',
  title: 'Execute a server command',
  description: 'Runs a server command; the edits it applies are written as one checkpointed transaction.',
  group: 'editing',
  input: () => ({
    command: z.string().min(1).describe('e.g. "_typescript.organizeImports".'),
    arguments: z.array(z.unknown()).optional().describe('As the server expects them.'),
    file_path: z.string().optional().describe('A file the command is about.'),
    language_id: z.string().optional().describe('Or: which server runs it.'),
    ...readinessInput,
  }),
  output: () => ({ ...writeOutput, result: z.unknown().optional().describe('What the server answered.') }),
  annotations: WRITES,
  async handler(args, ctx) {
    // The request wraps them two levels deep; deeper than the limit, no server or broker takes it.
    if (args.arguments !== undefined && nestsDeeperThan(args.arguments, MAX_JSON_DEPTH - 2)) {
      throw new UserError('invalid_argument', `execute_command arguments nest deeper than ${MAX_JSON_DEPTH - 2} levels; no language server command takes that. Pass the arguments the command expects.`);
    }
    let conn: LspConnection;
    if (args.file_path !== undefined) {
      // The file the command is about is opened, so the server works on the text on disk.
      const doc = await openReadyDocument(ctx, { ...args, file_path: args.file_path });
      if (isNotReady(doc)) return doc;
      conn = doc.handle.conn;
    } else if (args.language_id) {
      await ctx.workspace.ensureRoots();
      conn = await ctx.workspace.connection(ctx.workspace.registry.forLanguage(args.language_id));
      const notReady = await awaitReady(conn, args, ctx);
      if (notReady) return notReady;
    } else {
      conn = await onlyServer(ctx, 'pass file_path (a file the command is about) or language_id');
      const notReady = await awaitReady(conn, args, ctx);
      if (notReady) return notReady;
    }
    checkCommandAllowed(conn, args.command, args.arguments ?? []);
    await ctx.workspace.syncFromDisk(); // the server computes the edit on its copies: they must be the disk's
    const result = await ctx.ledger.transactions.withServerEdits(ctx.call, ctx.signal, () =>
      conn.request<unknown>('workspace/executeCommand', { command: args.command, arguments: args.arguments ?? [] }, { signal: ctx.signal }),
    );
    return { ...committed(ctx, result.checkpoint), result: result.value ?? null };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const answer = r.result === undefined || r.result === null ? 'The server answered null.' : `The server answered: ${JSON.stringify(r.result).slice(0, 2000)}`;
    return (r.files ?? []).length ? `${writeText(r)}\n${answer}` : `${answer} No file changed.`;
  },
});

export const editingTools = [applyEdit, executeCommand];
