import { z } from 'zod';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument } from '../documentQuery.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../readinessGate.js';
import { workspaceEditSchema } from '../lspSchemas.js';
import { readinessInput } from '../schemas.js';
import { defineTool, WRITES } from '../toolDefinition.js';
import { committed, writeOrPreview, writeOutput, writeText } from '../writeResult.js';

export const applyEdit = defineTool({
  name: 'apply_edit',
  title: 'Apply an edit',
  description:
    'Writes an edit to disk as one transaction: a WorkspaceEdit (text edits, file creations, renames, deletions), or file_path + old_text + new_text (old_text must occur exactly once). All files change or none does; the call leaves a checkpoint. dry_run shows the diff and writes nothing.',
  group: 'editing',
  input: {
    workspace_edit: workspaceEditSchema.optional(),
    file_path: z.string().optional().describe('With old_text and new_text: the file to edit (relative to the workspace root, or absolute).'),
    old_text: z.string().optional().describe('Exact text to replace; must occur once in the file.'),
    new_text: z.string().optional().describe('The replacement text.'),
    dry_run: z.boolean().optional().describe('Show what would change and write nothing (default false).'),
  },
  output: writeOutput,
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
  description:
    'Runs a command the language server offers (workspace/executeCommand; see get_server_capabilities → executeCommandProvider), as one transaction: edits the server applies meanwhile (workspace/applyEdit) are written and checkpointed, or all rolled back if the command fails.',
  group: 'editing',
  input: {
    command: z.string().min(1).describe('The command id, e.g. "_typescript.organizeImports".'),
    arguments: z.array(z.unknown()).optional().describe('The command\'s arguments, as the server expects them.'),
    file_path: z.string().optional().describe('A file the command is about: it is opened (synced with disk) and its server runs the command.'),
    language_id: z.string().optional().describe('Instead of file_path: which server runs it (python, typescript, …).'),
    ...readinessInput,
  },
  output: { ...writeOutput, result: z.unknown().optional().describe('What the server answered.') },
  annotations: WRITES,
  async handler(args, ctx) {
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
      throw new UserError('invalid_argument', 'Pass file_path (a file the command is about) or language_id to say which server runs the command.');
    }
    await ctx.workspace.syncFromDisk(); // the server computes the edit on its copies: they must be the disk's
    const result = await ctx.session.transactions.withServerEdits(ctx.call, ctx.signal, () =>
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
