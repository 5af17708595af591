import type { Diagnostic, DocumentDiagnosticReport, DocumentSymbol, Location, LocationLink, Position, Range, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { fullReportItems } from '@agent-lsp/lsp';
import { documentOf } from './queryKey.js';

/** A request an agent is likely to make next, with arguments taken from an answer it just got. */
export interface Prediction {
  rule: string;
  method: string;
  params: unknown;
  /** Prior probability that the agent makes exactly this request next (0–1). */
  confidence: number;
}

type Locations = Location | Location[] | LocationLink[] | null;

/** What the prefetcher knows of the agent beyond the answer itself. */
export interface PredictionContext {
  /** Where the agent last asked something in a document (its latest position query there). */
  lastPosition(uri: string): Position | undefined;
}

const NO_CONTEXT: PredictionContext = { lastPosition: () => undefined };

const LOCATION_METHODS = new Set(['textDocument/definition', 'textDocument/typeDefinition', 'textDocument/implementation', 'textDocument/declaration']);
/** How many targets of one answer are worth a speculation each. */
const MAX_TARGETS = 2;

function targets(result: Locations): { uri: string; position: Position }[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((l) => ('targetUri' in l ? { uri: l.targetUri, position: l.targetSelectionRange.start } : { uri: l.uri, position: l.range.start }));
}

const at = (uri: string, position: Position) => ({ textDocument: { uri }, position: { line: position.line, character: position.character } });

/** The first location of each of the first `n` distinct files. */
function firstPerFile(list: { uri: string; position: Position }[], n: number) {
  const seen = new Set<string>();
  const out: { uri: string; position: Position }[] = [];
  for (const t of list) {
    if (seen.has(t.uri)) continue;
    seen.add(t.uri);
    out.push(t);
    if (out.length >= n) break;
  }
  return out;
}

function topLevelSymbols(result: DocumentSymbol[] | SymbolInformation[] | null, uri: string, n: number): Position[] {
  if (!result) return [];
  return result.slice(0, n).map((s) => ('selectionRange' in s ? s.selectionRange.start : s.location.uri === uri ? s.location.range.start : undefined)).filter((p): p is Position => p !== undefined);
}

/**
 * Rules from what agents do after each answer: after a definition they read the hover of the
 * target and look for its references; after references they open the first few sites; after an
 * outline they hover its top-level symbols; after a symbol search they go to the top hits; after a
 * hover they jump to its definition. Arguments are taken from the answer, exactly as the tool
 * would send them when the agent passes back a position the answer showed it.
 */
export function predictNext(method: string, params: unknown, result: unknown, context: PredictionContext = NO_CONTEXT): Prediction[] {
  const out: Prediction[] = [];
  if (LOCATION_METHODS.has(method)) {
    for (const t of targets(result as Locations).slice(0, MAX_TARGETS)) {
      out.push({ rule: 'definition→hover', method: 'textDocument/hover', params: at(t.uri, t.position), confidence: 0.7 });
      out.push({ rule: 'definition→references', method: 'textDocument/references', params: { ...at(t.uri, t.position), context: { includeDeclaration: true } }, confidence: 0.55 });
    }
  } else if (method === 'textDocument/references') {
    // The agent reads the answer sorted by file and line, and goes to a use, not back to the
    // symbol it asked from.
    const from = params as { textDocument: { uri: string }; position: Position };
    const uses = targets(result as Locations)
      .filter((t) => t.uri !== from.textDocument.uri || t.position.line !== from.position.line)
      .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.position.line - b.position.line || a.position.character - b.position.character));
    for (const t of firstPerFile(uses, MAX_TARGETS)) {
      out.push({ rule: 'references→hover', method: 'textDocument/hover', params: at(t.uri, t.position), confidence: 0.5 });
      out.push({ rule: 'references→definition', method: 'textDocument/definition', params: at(t.uri, t.position), confidence: 0.5 });
    }
  } else if (method === 'textDocument/documentSymbol') {
    const uri = documentOf(params);
    const symbols = result as DocumentSymbol[] | SymbolInformation[] | null;
    const last = uri ? context.lastPosition(uri) : undefined;
    const enclosing = uri && last ? enclosingSymbol(symbols, last) : undefined;
    if (uri && enclosing) out.push({ rule: 'symbols→enclosing hover', method: 'textDocument/hover', params: at(uri, enclosing), confidence: 0.6 });
    if (uri) for (const p of topLevelSymbols(symbols, uri, 3)) out.push({ rule: 'symbols→hover', method: 'textDocument/hover', params: at(uri, p), confidence: 0.45 });
  } else if (method === 'textDocument/diagnostic') {
    const uri = documentOf(params);
    const report = result as DocumentDiagnosticReport | null;
    const items = fullReportItems(report);
    if (uri && items) {
      for (const p of codeActionsAtFirst(uri, items)) out.push({ rule: 'diagnostics→code actions', method: 'textDocument/codeAction', params: p, confidence: 0.6 });
      // What is the symbol the error is about?
      for (const d of byPosition(items).slice(0, MAX_TARGETS)) out.push({ rule: 'diagnostics→hover', method: 'textDocument/hover', params: at(uri, d.range.start), confidence: 0.5 });
    }
  } else if (method === 'workspace/symbol') {
    const hits = ((result as (SymbolInformation | WorkspaceSymbol)[] | null) ?? []).flatMap((s) => ('range' in s.location ? [{ uri: s.location.uri, position: s.location.range.start }] : []));
    for (const t of hits.slice(0, MAX_TARGETS)) {
      out.push({ rule: 'find_symbol→definition', method: 'textDocument/definition', params: at(t.uri, t.position), confidence: 0.6 });
      out.push({ rule: 'find_symbol→hover', method: 'textDocument/hover', params: at(t.uri, t.position), confidence: 0.55 });
    }
  } else if (method === 'textDocument/hover') {
    const p = params as { textDocument: { uri: string }; position: Position };
    if (result) out.push({ rule: 'hover→definition', method: 'textDocument/definition', params: at(p.textDocument.uri, p.position), confidence: 0.55 });
  }
  // Where the agent stands, it soon wants the outline around it (which function is this in?).
  const origin = params as { textDocument?: { uri?: string }; position?: Position } | null;
  const answered = result !== null && result !== undefined && !(Array.isArray(result) && result.length === 0);
  if (answered && (method === 'textDocument/hover' || LOCATION_METHODS.has(method)) && typeof origin?.textDocument?.uri === 'string' && origin.position) {
    out.push({ rule: 'position→symbols', method: 'textDocument/documentSymbol', params: { textDocument: { uri: origin.textDocument.uri } }, confidence: 0.5 });
  }
  return out;
}

/** Kinds whose children are locals (list_symbols leaves them out): Method, Constructor, Function. */
const FUNCTION_KINDS = new Set([6, 9, 12]);

/**
 * The innermost outline symbol around a position, as list_symbols shows the outline (a symbol
 * spans from its name's line to its end; functions' locals are not descended into), at its name.
 */
function enclosingSymbol(result: DocumentSymbol[] | SymbolInformation[] | null, p: Position): Position | undefined {
  if (!result || result.length === 0 || !('selectionRange' in (result[0] as object))) return undefined;
  let found: Position | undefined;
  const walk = (symbols: DocumentSymbol[]) => {
    for (const s of symbols) {
      if (s.selectionRange.start.line <= p.line && s.range.end.line >= p.line) found = s.selectionRange.start;
      if (s.children && !FUNCTION_KINDS.has(s.kind)) walk(s.children);
    }
  };
  walk(result as DocumentSymbol[]);
  return found;
}

function overlaps(d: Diagnostic, range: Range): boolean {
  return (
    (d.range.start.line < range.end.line || (d.range.start.line === range.end.line && d.range.start.character <= range.end.character)) &&
    (d.range.end.line > range.start.line || (d.range.end.line === range.start.line && d.range.end.character >= range.start.character))
  );
}

/**
 * The code action listings suggest_fixes asks for the first diagnostics of a file, as get_diagnostics
 * shows them (by position): over the diagnostic's range, with the diagnostics overlapping it in the
 * server's order (packages/tools/src/codeActions/actionList.ts builds the same params).
 */
function byPosition(items: Diagnostic[]): Diagnostic[] {
  return [...items].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

function codeActionsAtFirst(uri: string, items: Diagnostic[]): unknown[] {
  const sorted = byPosition(items);
  const errors = sorted.filter((d) => d.severity === 1);
  const chosen = [...new Set([...sorted.slice(0, MAX_TARGETS), ...errors.slice(0, 1)])];
  return chosen.map((d) => ({
    textDocument: { uri },
    range: { start: { ...d.range.start }, end: { ...d.range.end } },
    context: { diagnostics: items.filter((x) => overlaps(x, d.range)), triggerKind: 1 },
  }));
}
