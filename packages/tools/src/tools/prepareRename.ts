import { z } from 'zod';
import type { Location, LocationLink, Position, PrepareRenameResult, Range } from 'vscode-languageserver-protocol';
import { ErrorCodes, splitLines, uriToPath, WireError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument, positionIn, requireSupport } from '../project/documentQuery.js';
import { PositionMapper } from '../output/locations.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { identifierAt } from '../analysis/renameCheck.js';
import { positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY, type ToolContext } from '../catalog/toolDefinition.js';

/** Codes that mean the request did not get an answer (cancelled, crashed, timed out), not a refusal. */
const NOT_A_REFUSAL: ReadonlySet<number> = new Set([
  ErrorCodes.RequestCancelled,
  ErrorCodes.ServerCancelled,
  ErrorCodes.ContentModified,
  ErrorCodes.ServerCrashed,
  ErrorCodes.ServerNotReady,
  ErrorCodes.RequestTimeout,
  ErrorCodes.ConnectionClosed,
]);

/**
 * Where the symbol at `position` is defined when that is outside the workspace (or in a
 * node_modules inside it): a rename there would edit a library. Servers differ on whether they
 * refuse (tsserver does, gopls does not), so this is checked for all of them.
 */
async function libraryDefinition(ctx: ToolContext, conn: LspConnection, uri: string, position: Position): Promise<string | undefined> {
  if (!conn.supports('textDocument/definition')) return undefined;
  const result = await ctx.workspace.query<Location | Location[] | LocationLink[] | null>(conn, 'textDocument/definition', { textDocument: { uri }, position }, ctx.signal);
  const list = result ? (Array.isArray(result) ? result : [result]) : [];
  const paths = list.map((l) => uriToPath('targetUri' in l ? l.targetUri : l.uri)).filter((p): p is string => p !== undefined);
  if (paths.length === 0) return undefined;
  const inWorkspace = (p: string) => !p.includes('/node_modules/') && ctx.workspace.rootList.some((r) => p === r || p.startsWith(r.endsWith('/') ? r : `${r}/`));
  return paths.some(inWorkspace) ? undefined : ctx.workspace.display(paths[0] as string);
}

const rangeOut = z.object({ line: z.number(), column: z.number(), end_line: z.number(), end_column: z.number() });

/** The identifier's LSP range around `position`, for servers that answer `defaultBehavior`. */
function identifierRange(text: string, position: Position): Range | undefined {
  const word = identifierAt(text, position);
  if (word === undefined) return undefined;
  const line = splitLines(text)[position.line] ?? '';
  for (let start = Math.max(0, position.character - word.length); start <= position.character; start++) {
    if (line.startsWith(word, start)) return { start: { line: position.line, character: start }, end: { line: position.line, character: start + word.length } };
  }
  return undefined;
}

export const prepareRename = defineTool({
  name: 'prepare_rename',
  title: 'Check a rename',
  description: 'Whether the symbol at a position can be renamed: its range and name, or why not.',
  group: 'navigation',
  input: () => ({ ...positionInput, ...readinessInput }),
  output: () => ({
    ...readyOutput,
    renameable: z.boolean().optional(),
    reason: z.string().optional().describe('Why not, when renameable is false.'),
    range: rangeOut.optional(),
    placeholder: z.string().optional().describe('The name a rename replaces.'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    requireSupport(doc, 'textDocument/rename', 'prepare_rename');
    const { conn, uri } = doc.handle;
    const text = doc.handle.doc.text;
    const position = positionIn(doc, args);
    const word = identifierAt(text, position);
    const no = (reason: string) => ({ ready: true as const, renameable: false, reason: `cannot rename here: ${reason}` });
    if (word === undefined) return no('no identifier at this position (whitespace or punctuation); put the position on a name.');
    const provider = conn.capabilities.renameProvider;
    const hasPrepare = typeof provider === 'object' && provider.prepareProvider === true;
    if (!hasPrepare) {
      return no(`${conn.server.displayName} cannot check a rename in advance (no prepareRename); rename_symbol with dry_run: true shows what a rename would change.`);
    }
    let result: PrepareRenameResult | null;
    try {
      result = await ctx.workspace.query<PrepareRenameResult | null>(conn, 'textDocument/prepareRename', { textDocument: { uri }, position }, ctx.signal);
    } catch (err) {
      if (err instanceof WireError && !NOT_A_REFUSAL.has(err.code)) return no(`${conn.server.displayName} says: ${err.message.replace(/^Request textDocument\/prepareRename failed with message: /, '')}`);
      throw err;
    }
    if (!result) return no(`"${word}" is not a symbol ${conn.server.displayName} can rename (a keyword, literal, built-in or library symbol).`);
    const range = 'defaultBehavior' in result ? identifierRange(text, position) : 'range' in result ? result.range : result;
    if (!range) return no('no identifier at this position.');
    const library = await libraryDefinition(ctx, conn, uri, position);
    if (library !== undefined) return no(`"${word}" is defined outside the workspace, in ${library} (a library symbol).`);
    const mapper = new PositionMapper(ctx.workspace, conn);
    const lines = splitLines(text);
    const placeholder = 'placeholder' in result ? result.placeholder : rangeText(lines, range);
    return { ready: true, renameable: true, range: mapper.range(uri, range), placeholder };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    if (!r.renameable) return r.reason ?? 'cannot rename here.';
    const g = r.range;
    return `Renameable: "${r.placeholder ?? ''}"${g ? ` at ${g.line}:${g.column}-${g.end_line}:${g.end_column}` : ''}.`;
  },
});

function rangeText(lines: readonly string[], range: Range): string {
  if (range.start.line === range.end.line) return (lines[range.start.line] ?? '').slice(range.start.character, range.end.character);
  const parts = [(lines[range.start.line] ?? '').slice(range.start.character)];
  for (let l = range.start.line + 1; l < range.end.line; l++) parts.push(lines[l] ?? '');
  parts.push((lines[range.end.line] ?? '').slice(0, range.end.character));
  return parts.join('\n');
}
