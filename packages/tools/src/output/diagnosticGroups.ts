import { z } from 'zod';
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { PositionMapper } from './locations.js';
import { diagnostic, type DiagnosticOut } from '../catalog/schemas.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

export const DIAGNOSTIC_GROUPINGS = ['file', 'severity', 'symbol'] as const;
export type DiagnosticGrouping = (typeof DIAGNOSTIC_GROUPINGS)[number];

export const groupOut = z.object({ group: z.string(), count: z.number(), errors: z.number(), warnings: z.number() });
export type GroupOut = z.infer<typeof groupOut>;
export const groupedDiagnostic = diagnostic.extend({ group: z.string().optional() });
export type GroupedDiagnostic = DiagnosticOut & { group?: string };

const SEVERITY_ORDER: Record<string, number> = { error: 0, warning: 1, information: 2, hint: 3 };
/** The group of diagnostics outside every symbol (imports, module-level statements). */
export const OUTSIDE_SYMBOLS = '(outside any symbol)';

interface SymbolSpan {
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

/** Every symbol of a file with its dotted path (Class.method) and full range, 1-based characters. */
export async function symbolSpans(ctx: Pick<ToolContext, 'workspace' | 'signal'>, conn: LspConnection, uri: string): Promise<SymbolSpan[]> {
  if (!conn.supports('textDocument/documentSymbol')) return [];
  const result = await ctx.workspace.query<DocumentSymbol[] | SymbolInformation[] | null>(conn, 'textDocument/documentSymbol', { textDocument: { uri } }, ctx.signal);
  const mapper = new PositionMapper(ctx.workspace, conn);
  const spans: SymbolSpan[] = [];
  const list = result ?? [];
  if (list.length > 0 && 'location' in (list[0] as object)) {
    for (const s of list as SymbolInformation[]) spans.push({ path: s.containerName ? `${s.containerName}.${s.name}` : s.name, ...mapper.range(uri, s.location.range) });
    return spans;
  }
  const walk = (symbols: readonly DocumentSymbol[], prefix: string) => {
    for (const s of symbols) {
      const path = prefix ? `${prefix}.${s.name}` : s.name;
      spans.push({ path, ...mapper.range(uri, s.range) });
      walk(s.children ?? [], path);
    }
  };
  walk(list as DocumentSymbol[], '');
  return spans;
}

const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);

/** The innermost symbol whose range holds the diagnostic's start. */
export function enclosingSymbol(spans: readonly SymbolSpan[], d: DiagnosticOut): string {
  let best: SymbolSpan | undefined;
  for (const s of spans) {
    if (!before(s.line, s.column, d.line, d.column) || !before(d.line, d.column, s.end_line, s.end_column)) continue;
    if (!best || before(best.line, best.column, s.line, s.column)) best = s;
  }
  return best ? best.path : OUTSIDE_SYMBOLS;
}

/**
 * Orders diagnostics by group (files and symbols by name, severities from errors down), each
 * marked with its group, and counts every group.
 */
export function groupDiagnostics(all: readonly GroupedDiagnostic[], by: DiagnosticGrouping, symbolOf: (d: DiagnosticOut) => string): { groups: GroupOut[]; diagnostics: GroupedDiagnostic[] } {
  const keyOf = (d: DiagnosticOut) => (by === 'file' ? d.file : by === 'severity' ? d.severity : `${d.file}: ${symbolOf(d)}`);
  const marked = all.map((d) => ({ ...d, group: keyOf(d) }));
  const rank = (g: string) => (by === 'severity' ? String(SEVERITY_ORDER[g] ?? 9) : g);
  marked.sort((a, b) => (rank(a.group) < rank(b.group) ? -1 : rank(a.group) > rank(b.group) ? 1 : 0) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column);
  const groups = new Map<string, GroupOut>();
  for (const d of marked) {
    const g = groups.get(d.group) ?? { group: d.group, count: 0, errors: 0, warnings: 0 };
    g.count++;
    if (d.severity === 'error') g.errors++;
    if (d.severity === 'warning') g.warnings++;
    groups.set(d.group, g);
  }
  return { groups: [...groups.values()], diagnostics: marked };
}
