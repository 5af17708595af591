import { UserError } from '@agent-lsp/protocol';
import { isNotReady, openReadyDocument, positionIn, type ReadyDocument } from '../project/documentQuery.js';
import type { NotReadyResult, ReadinessArgs } from '../project/readinessGate.js';
import { symbolKindName } from './symbolKinds.js';
import { candidatesInFile, documentSymbolTree, findSymbolCandidates, type SymbolCandidate } from './symbolLocator.js';
import { innermostAt, parseSymbolPath, qualifiedName, type SymbolNode } from './symbolPath.js';
import { fileLines, symbolExtent, syntaxFamily, type FileLines, type SymbolExtent, type SyntaxFamily } from './symbolText.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/** A symbol to read or edit, with the file's text as the server holds it (the disk's). */
export interface SymbolTarget {
  doc: ReadyDocument;
  node: SymbolNode;
  qualified: string;
  text: FileLines;
  family: SyntaxFamily;
  /** Whole lines, decorators and doc comment included. */
  extent: SymbolExtent;
}

export interface SymbolTargetArgs extends ReadinessArgs {
  file_path?: string | undefined;
  symbol_path?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  position_pattern?: string | undefined;
  language_id?: string | undefined;
}

export function candidateLine(c: { qualified: string; node: SymbolNode; label: string }): string {
  return `${c.qualified} (${symbolKindName(c.node.kind)}) ${c.label}:${c.node.selectionRange.start.line + 1}`;
}

function targetOf(doc: ReadyDocument, node: SymbolNode): SymbolTarget {
  const text = fileLines(doc.handle.doc.text);
  const family = syntaxFamily(doc.handle.languageId);
  return { doc, node, qualified: qualifiedName(node), text, family, extent: symbolExtent(text.lines, node.range, family) };
}

/** What a search that stopped short left out (files declaring the last name it did not examine; `partial`: what a server's index misses). */
export function unexaminedNote(path: string, unexamined: number, partial?: string): string {
  const more = unexamined > 0 ? ` ${unexamined} more file(s) declare "${path.split('.').pop() ?? path}" and were not examined: name the file (file.py:${path}) to search it.` : '';
  return partial ? `${more} The search did not cover the whole workspace: ${partial} Name the file (file.py:${path}) to search it.` : more;
}

function ambiguous(path: string, candidates: readonly SymbolCandidate[], unexamined: number, partial?: string): UserError {
  const list = candidates.slice(0, 10).map((c) => `  ${candidateLine(c)}`).join('\n');
  return new UserError(
    'invalid_argument',
    `symbol_path "${path}" is ambiguous: ${unexamined > 0 || partial ? 'at least ' : ''}${candidates.length} symbols match:\n${list}\nQualify it (Class.method, file.ts:Name) or give file_path with line and column.${unexaminedNote(path, unexamined, partial)} Nothing was changed.`,
  );
}

export function unknownPath(path: string, where: string, near: readonly string[], unexamined = 0, partial?: string): UserError {
  const hint = near.length ? ` Close matches: ${near.join(', ')}.` : ' list_symbols shows what a file declares; find_symbol searches by name.';
  return new UserError('invalid_argument', `No symbol matches symbol_path "${path}" in ${unexamined > 0 || partial ? 'the files examined of ' : ''}${where}.${unexaminedNote(path, unexamined, partial)}${hint} Nothing was changed.`);
}

/**
 * The one symbol the arguments name: `symbol_path` (in file_path, in the file it names, or found
 * through the workspace), or the innermost symbol at a position. None or several: a clear error.
 */
export async function resolveSymbolTarget(ctx: ToolContext, args: SymbolTargetArgs): Promise<SymbolTarget | NotReadyResult> {
  const hasPosition = args.line !== undefined || args.column !== undefined || args.position_pattern !== undefined;
  if (args.symbol_path !== undefined && hasPosition) {
    throw new UserError('invalid_argument', 'Pass symbol_path or a position (line/column or position_pattern), not both.');
  }
  if (args.symbol_path !== undefined) {
    const path = args.symbol_path;
    const parsed = parseSymbolPath(path);
    if (parsed.segments.length === 0) throw new UserError('invalid_argument', 'symbol_path is empty: give a dotted path such as Class.method or file.py:function.');
    if (parsed.file !== undefined && args.file_path !== undefined && ctx.workspace.resolveFile(parsed.file) !== ctx.workspace.resolveFile(args.file_path)) {
      throw new UserError('invalid_argument', `symbol_path names ${parsed.file} but file_path is ${args.file_path}: pass one file.`);
    }
    const file = args.file_path ?? parsed.file;
    let found: { candidates: SymbolCandidate[]; near: string[]; unexamined: number; partial?: string };
    let where: string;
    if (file !== undefined) {
      const doc = await openReadyDocument(ctx, { ...args, file_path: file });
      if (isNotReady(doc)) return doc;
      found = { ...(await candidatesInFile(ctx, doc, path)), unexamined: 0 };
      where = doc.label;
    } else {
      const located = await findSymbolCandidates(ctx, parsed, args);
      if ('ready' in located) return located;
      found = located;
      where = 'the workspace';
    }
    const best = found.candidates.filter((c) => c.rank === Math.min(...found.candidates.map((x) => x.rank)));
    if (best.length === 0) throw unknownPath(path, where, found.near, found.unexamined, found.partial);
    // One match among the files examined is not one match when others were not examined (or indexed).
    if (best.length > 1 || found.unexamined > 0 || found.partial) throw ambiguous(path, best, found.unexamined, found.partial);
    const only = best[0] as SymbolCandidate;
    return targetOf(only.doc, only.node);
  }
  if (args.file_path === undefined) throw new UserError('invalid_argument', 'Pass symbol_path, or file_path with line/column or position_pattern.');
  const doc = await openReadyDocument(ctx, { ...args, file_path: args.file_path });
  if (isNotReady(doc)) return doc;
  const position = positionIn(doc, { ...args, file_path: doc.label });
  const node = innermostAt(await documentSymbolTree(ctx, doc), position);
  if (!node) {
    throw new UserError('invalid_position', `No symbol encloses ${args.position_pattern !== undefined ? 'that position' : `line ${args.line}, column ${args.column}`} in ${doc.label}: point inside a function, method or class (list_symbols shows them).`);
  }
  return targetOf(doc, node);
}

export function isTarget(x: SymbolTarget | NotReadyResult): x is SymbolTarget {
  return !('ready' in x);
}
