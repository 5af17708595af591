import { z } from 'zod';
import type { FormattingOptions, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fromLspRange, UserError } from '@agent-lsp/protocol';
import { isNotReady, openReadyDocument, positionIn, rangeIn, requireSupport, type ReadyDocument } from '../documentQuery.js';
import { notReadyText, type NotReadyResult } from '../readinessGate.js';
import { positionInput, rangeInput, readinessInput } from '../schemas.js';
import { defineTool, WRITES, type ToolContext } from '../toolDefinition.js';
import { writeOrPreview, writeOutput, writeText } from '../writeResult.js';

export const renameSymbol = defineTool({
  name: 'rename_symbol',
  title: 'Rename symbol',
  description:
    'Renames the symbol at a position everywhere the server knows it is used (textDocument/rename), as one transaction: every file changes or none does, and the call leaves a checkpoint. dry_run returns the WorkspaceEdit and the diff and writes nothing.',
  group: 'editing',
  input: {
    ...positionInput,
    new_name: z.string().min(1).describe('The new name.'),
    dry_run: z.boolean().optional().describe('Return the edit (workspace_edit, diff) without writing (default false).'),
    ...readinessInput,
  },
  output: { ...writeOutput, workspace_edit: z.record(z.string(), z.unknown()).optional().describe('The server\'s WorkspaceEdit (LSP form), ready for apply_edit.') },
  annotations: WRITES,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    requireSupport(doc, 'textDocument/rename', 'rename_symbol');
    const { conn, uri } = doc.handle;
    await ctx.workspace.syncFromDisk(); // the server computes the edit on its copies: they must be the disk's
    const edit = await conn.request<WorkspaceEdit | null>('textDocument/rename', { textDocument: { uri }, position: positionIn(doc, args), newName: args.new_name }, { signal: ctx.signal });
    if (!edit || (!edit.changes && !edit.documentChanges)) {
      throw new UserError('invalid_argument', `${conn.server.displayName} cannot rename at this position in ${doc.label}: put the position on the symbol's name.`);
    }
    const out = await writeOrPreview(ctx, args.dry_run === true, (plan) => plan.applyWorkspaceEdit(edit));
    return { ...out, workspace_edit: edit };
  },
  text: (r) => (!r.ready ? notReadyText(r as NotReadyResult) : writeText(r)),
});

const formatInput = {
  apply: z.boolean().optional().describe('Write the formatted text (one transaction, with a checkpoint). Default false: return the edits only.'),
  tab_size: z.number().int().positive().optional().describe('Spaces per indentation level (default 4).'),
  insert_spaces: z.boolean().optional().describe('Indent with spaces rather than tabs (default true).'),
  ...readinessInput,
};

const editOut = z.object({ line: z.number(), column: z.number(), end_line: z.number(), end_column: z.number(), new_text: z.string() });
const formatOutput = { ...writeOutput, edits: z.array(editOut).optional().describe('The server\'s edits: 1-based character positions in the file as it was.') };

async function format(
  ctx: ToolContext,
  args: { apply?: boolean | undefined; tab_size?: number | undefined; insert_spaces?: boolean | undefined },
  doc: ReadyDocument,
  method: string,
  extra: Record<string, unknown>,
) {
  const { conn, uri } = doc.handle;
  const options: FormattingOptions = { tabSize: args.tab_size ?? 4, insertSpaces: args.insert_spaces ?? true, trimTrailingWhitespace: true, insertFinalNewline: true };
  const edits = (await conn.request<TextEdit[] | null>(method, { textDocument: { uri }, options, ...extra }, { signal: ctx.signal })) ?? [];
  const text = doc.handle.doc.text;
  const shown = edits.map((e) => ({ ...fromLspRange(text, e.range), new_text: e.newText }));
  const out = await writeOrPreview(ctx, args.apply !== true, (plan) => plan.applyTextEdits(doc.handle.path, edits));
  return { ...out, edits: shown };
}

export const formatDocument = defineTool({
  name: 'format_document',
  title: 'Format document',
  description: 'Formats a whole file with its language server (textDocument/formatting). Returns the edits and the diff; with apply: true writes them as one transaction with a checkpoint.',
  group: 'editing',
  input: { file_path: positionInput.file_path, ...formatInput },
  output: formatOutput,
  annotations: WRITES,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    requireSupport(doc, 'textDocument/formatting', 'format_document');
    return format(ctx, args, doc, 'textDocument/formatting', {});
  },
  text: (r) => (!r.ready ? notReadyText(r as NotReadyResult) : writeText(r)),
});

export const formatRange = defineTool({
  name: 'format_range',
  title: 'Format range',
  description: 'Formats part of a file with its language server (textDocument/rangeFormatting). Returns the edits and the diff; with apply: true writes them as one transaction with a checkpoint.',
  group: 'editing',
  input: { ...rangeInput, ...formatInput },
  output: formatOutput,
  annotations: WRITES,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    requireSupport(doc, 'textDocument/rangeFormatting', 'format_range', 'format_document');
    return format(ctx, args, doc, 'textDocument/rangeFormatting', { range: rangeIn(doc, args) });
  },
  text: (r) => (!r.ready ? notReadyText(r as NotReadyResult) : writeText(r)),
});

export const refactoringTools = [renameSymbol, formatDocument, formatRange];
