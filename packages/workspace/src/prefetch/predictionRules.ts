import type { DocumentSymbol, Location, LocationLink, Position, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
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
export function predictNext(method: string, params: unknown, result: unknown): Prediction[] {
  const out: Prediction[] = [];
  if (LOCATION_METHODS.has(method)) {
    for (const t of targets(result as Locations).slice(0, MAX_TARGETS)) {
      out.push({ rule: 'definition→hover', method: 'textDocument/hover', params: at(t.uri, t.position), confidence: 0.7 });
      out.push({ rule: 'definition→references', method: 'textDocument/references', params: { ...at(t.uri, t.position), context: { includeDeclaration: true } }, confidence: 0.55 });
    }
  } else if (method === 'textDocument/references') {
    for (const t of firstPerFile(targets(result as Locations), MAX_TARGETS)) {
      out.push({ rule: 'references→hover', method: 'textDocument/hover', params: at(t.uri, t.position), confidence: 0.5 });
      out.push({ rule: 'references→definition', method: 'textDocument/definition', params: at(t.uri, t.position), confidence: 0.5 });
    }
  } else if (method === 'textDocument/documentSymbol') {
    const uri = documentOf(params);
    if (uri) for (const p of topLevelSymbols(result as DocumentSymbol[] | SymbolInformation[] | null, uri, 3)) out.push({ rule: 'symbols→hover', method: 'textDocument/hover', params: at(uri, p), confidence: 0.55 });
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
  return out;
}
