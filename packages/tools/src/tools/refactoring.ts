import { z } from 'zod';
import type { FormattingOptions, Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fromLspRange, splitLines, UserError } from '@agent-lsp/protocol';
import { askAgainWhileModified } from '@agent-lsp/workspace';
import { isNotReady, openReadyDocument, positionIn, rangeIn, requireSupport, type ReadyDocument } from '../project/documentQuery.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { PositionMapper } from '../output/locations.js';
import { page, pageHeader } from '../output/paging.js';
import { editsByUri, possiblyMissed } from '../analysis/renameCheck.js';
import { globToRegExp, matchesAnyGlob, withoutExcludedFiles } from '../project/globFilter.js';
import { pagingInput, pagingOutput, positionInput, rangeInput, readinessInput } from '../catalog/schemas.js';
import { defineTool, WRITES, type ToolContext } from '../catalog/toolDefinition.js';
import { writeOrPreview, writeOutput, writeText } from '../output/writeResult.js';
import { refuseEditOnPartialIndex } from '../project/partialIndex.js';

/** Edits of a rename dry run per page: enough to review, small enough for a client's result cap. */
const RENAME_EDITS_PAGE = 100;
/** Possibly missed places listed (the warning gives the count). */
const MISSED_SHOWN = 50;

const renameEditOut = z.object({ file: z.string(), line: z.number(), column: z.number(), end_line: z.number(), end_column: z.number(), new_text: z.string() });
const missedOut = z.object({ file: z.string(), line: z.number(), column: z.number() });

export const renameSymbol = defineTool({
  name: 'rename_symbol',
  title: 'Rename symbol',
  description: 'Renames the symbol at a position everywhere, as one checkpointed transaction; dry_run previews. Flags places the server missed.',
  group: 'editing',
  input: () => ({
    ...positionInput,
    new_name: z.string().min(1),
    dry_run: z.boolean().optional().describe('Preview only (default false).'),
    exclude_globs: z.array(z.string().min(1)).optional().describe('Leave files matching these globs unchanged, e.g. "vendor/**".'),
    ...pagingInput,
    ...readinessInput,
  }),
  output: () => ({
    ...writeOutput,
    edits: z.array(renameEditOut).optional().describe('Dry run: one page of the edits (1-based, characters, in the files as they are).'),
    ...pagingOutput,
    workspace_edit: z.record(z.string(), z.unknown()).optional().describe('Dry run, when every edit fits one page: the server\'s WorkspaceEdit, for apply_edit.'),
    possibly_missed: z.array(missedOut).optional().describe('References, or word-bounded uses of the old name in the touched files, that no edit covers.'),
    possibly_missed_total: z.number().optional(),
    excluded_files: z.array(z.string()).optional().describe('Files the rename would edit that exclude_globs left unchanged.'),
  }),
  annotations: WRITES,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    requireSupport(doc, 'textDocument/rename', 'rename_symbol');
    const { conn, uri } = doc.handle;
    await ctx.workspace.syncFromDisk(); // the server computes the edit on its copies: they must be the disk's
    const position = positionIn(doc, args);
    // Not through the query cache (an edit is acted on), but asked again as a query is when the server voids it (ty's content modified).
    const params = { textDocument: { uri }, position, newName: args.new_name };
    const serverEdit = await askAgainWhileModified('textDocument/rename', () => conn.request<WorkspaceEdit | null>('textDocument/rename', params, { signal: ctx.signal }), ctx.signal);
    if (!serverEdit || (!serverEdit.changes && !serverEdit.documentChanges)) {
      throw new UserError('invalid_argument', `${conn.server.displayName} cannot rename at this position in ${doc.label}: put the position on the symbol's name.`);
    }
    refuseEditOnPartialIndex(conn, 'rename_symbol', doc.asked);
    const globs = (args.exclude_globs ?? []).map(globToRegExp);
    const { edit, excludedUris } = withoutExcludedFiles(serverEdit, (u) => matchesAnyGlob(ctx.workspace.displayUri(u), globs));
    const excludedFiles = excludedUris.map((u) => ctx.workspace.displayUri(u)).sort();
    if (excludedUris.length > 0 && editsByUri(edit).size === 0) {
      throw new UserError('invalid_argument', `Every file the rename would edit matches exclude_globs (${excludedFiles.join(', ')}): nothing was renamed. Narrow exclude_globs.`);
    }
    // Before writing: afterwards the references would name the new symbol. Places in excluded
    // files are left unchanged on purpose, so they are not "missed".
    const missed = (await possiblyMissed(conn, uri, position, serverEdit, (u) => ctx.workspace.displayUri(u), ctx.signal)).filter((m) => !excludedFiles.includes(m.file));
    const dryRun = args.dry_run === true;
    const out = await writeOrPreview(ctx, dryRun, (plan) => plan.applyWorkspaceEdit(edit));
    const flagged = {
      ...(missed.length ? { possibly_missed: missed.slice(0, MISSED_SHOWN), possibly_missed_total: missed.length } : {}),
      ...(excludedFiles.length ? { excluded_files: excludedFiles } : {}),
    };
    if (!dryRun) return { ...out, ...flagged };
    const mapper = new PositionMapper(ctx.workspace, conn);
    const all = [...editsByUri(edit)].flatMap(([u, edits]) => edits.map((e) => ({ file: ctx.workspace.displayUri(u), ...mapper.range(u, e.range), new_text: e.newText })));
    const p = page(all, args.offset, args.limit, RENAME_EDITS_PAGE);
    const { items, ...paging } = p;
    return { ...out, edits: items, ...paging, ...(paging.offset === 0 && paging.complete ? { workspace_edit: edit } : {}), ...flagged };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = [writeText(r)];
    if (r.dry_run && r.total !== undefined) lines.push(`Edits (structured content \`edits\`): ${pageHeader(r, 'edit(s)').replace(/:$/, '.')}`);
    if (r.excluded_files?.length) lines.push(`Left unchanged (exclude_globs): ${r.excluded_files.join(', ')}.`);
    const missed = r.possibly_missed ?? [];
    if (missed.length) {
      const more = (r.possibly_missed_total ?? missed.length) - missed.length;
      lines.push(`WARNING: the server's rename may be incomplete: ${r.possibly_missed_total ?? missed.length} place(s) still name the old symbol (references or the same word in the touched files; macro bodies, comments and strings included), e.g. ${missed.slice(0, 5).map((m) => `${m.file}:${m.line}:${m.column}`).join(', ')}${more > 0 ? ` (+${more} more)` : ''}. Check them before relying on the rename.`);
    }
    return lines.join('\n');
  },
});

const formatInput = {
  apply: z.boolean().optional().describe('Write it (default: edits only).'),
  tab_size: z.number().int().positive().optional().meta({ default: 4 }),
  insert_spaces: z.boolean().optional().meta({ default: true }),
  ...readinessInput,
};

const editOut = z.object({ line: z.number(), column: z.number(), end_line: z.number(), end_column: z.number(), new_text: z.string() });
const formatOutput = {
  ...writeOutput,
  edits: z.array(editOut).optional().describe('The server\'s edits: 1-based character positions in the file as it was.'),
  answered_by: z.string().optional().describe('format_range on a server without range formatting: textDocument/formatting answered, and only its edits inside the range are kept.'),
  edits_outside_range: z.number().optional().describe('With answered_by: the whole-file edits left out because they reach outside the range.'),
};

async function format(
  ctx: ToolContext,
  args: { apply?: boolean | undefined; tab_size?: number | undefined; insert_spaces?: boolean | undefined },
  doc: ReadyDocument,
  method: string,
  extra: Record<string, unknown>,
  within?: Range,
) {
  const { conn, uri } = doc.handle;
  const options: FormattingOptions = { tabSize: args.tab_size ?? 4, insertSpaces: args.insert_spaces ?? true, trimTrailingWhitespace: true, insertFinalNewline: true };
  const all = (await conn.request<TextEdit[] | null>(method, { textDocument: { uri }, options, ...extra }, { signal: ctx.signal })) ?? [];
  const edits = within ? all.filter((e) => contains(within, e.range)) : all;
  const text = doc.handle.doc.text;
  const shown = edits.map((e) => ({ ...fromLspRange(text, e.range), new_text: e.newText }));
  const out = await writeOrPreview(ctx, args.apply !== true, (plan) => plan.applyTextEdits(doc.handle.path, edits));
  return { ...out, edits: shown, ...(within ? { answered_by: method, edits_outside_range: all.length - edits.length } : {}) };
}

/** The range of the whole text, ending exactly at its end (never past it). */
function wholeText(text: string): Range {
  const lines = splitLines(text);
  return { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: lines[lines.length - 1]?.length ?? 0 } };
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

export const formatDocument = defineTool({
  name: 'format_document',
  title: 'Format document',
  description: 'Formats a file: the edits, or with apply: true written (checkpointed).',
  group: 'editing',
  input: () => ({ file_path: positionInput.file_path, ...formatInput }),
  output: () => formatOutput,
  annotations: WRITES,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn } = doc.handle;
    if (conn.server.formatDocumentByRange && conn.supports('textDocument/rangeFormatting')) {
      return format(ctx, args, doc, 'textDocument/rangeFormatting', { range: wholeText(doc.handle.doc.text) });
    }
    requireSupport(doc, 'textDocument/formatting', 'format_document');
    return format(ctx, args, doc, 'textDocument/formatting', {});
  },
  text: (r) => (!r.ready ? notReadyText(r as NotReadyResult) : writeText(r)),
});

export const formatRange = defineTool({
  name: 'format_range',
  title: 'Format range',
  description: 'Formats a range: the edits, or with apply: true written (checkpointed).',
  group: 'editing',
  input: () => ({ ...rangeInput, ...formatInput }),
  output: () => formatOutput,
  annotations: WRITES,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const range = rangeIn(doc, args);
    // A server that only formats whole files (gopls): its edits that fall inside the range.
    if (!doc.handle.conn.supports('textDocument/rangeFormatting') && doc.handle.conn.supports('textDocument/formatting')) {
      return format(ctx, args, doc, 'textDocument/formatting', {}, range);
    }
    requireSupport(doc, 'textDocument/rangeFormatting', 'format_range', 'format_document');
    return format(ctx, args, doc, 'textDocument/rangeFormatting', { range });
  },
  text: (r) =>
    !r.ready
      ? notReadyText(r as NotReadyResult)
      : writeText(r) +
        (r.answered_by ? `\nThe server formats whole files only: its whole-file edits inside the range are kept (${r.edits_outside_range ?? 0} outside it left out).` : ''),
});

export const refactoringTools = [renameSymbol, formatDocument, formatRange];
