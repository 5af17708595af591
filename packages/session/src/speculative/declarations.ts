import { SymbolKind, type DocumentSymbol, type Range, type SymbolInformation } from 'vscode-languageserver-protocol';
import { splitLines } from '@agent-lsp/protocol';
import { touches } from './rangeMapping.js';

/** A top-level or member symbol of a file, as its server listed it for the on-disk text. */
export interface Declaration {
  name: string;
  /** The enclosing symbol's name, for a member. */
  container?: string | undefined;
  range: Range;
  selectionRange: Range;
}

/** A declaration spans at most this many lines from its name to where its brackets close. */
const MAX_HEAD_LINES = 40;

/**
 * Symbols whose children are members other files reach (a class's methods, a module's names); a
 * function's children are its parameters and locals (pyright lists them), which nothing outside uses.
 */
const HAS_MEMBERS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([SymbolKind.Module, SymbolKind.Namespace, SymbolKind.Package, SymbolKind.Class, SymbolKind.Enum, SymbolKind.Interface, SymbolKind.Struct, SymbolKind.Object]);

/** The server's document symbols flattened to top-level symbols and their direct members. */
export function declarationsOf(symbols: readonly (DocumentSymbol | SymbolInformation)[] | null): Declaration[] {
  const out: Declaration[] = [];
  const visit = (list: readonly (DocumentSymbol | SymbolInformation)[], container: string | undefined, depth: number) => {
    for (const s of list) {
      const range = 'location' in s ? s.location.range : s.range;
      const selectionRange = 'selectionRange' in s ? s.selectionRange : range;
      out.push({ name: s.name, container: container ?? ('containerName' in s ? s.containerName : undefined), range, selectionRange });
      if (depth < 1 && 'children' in s && s.children && HAS_MEMBERS.has(s.kind)) visit(s.children, s.name, depth + 1);
    }
  };
  visit(symbols ?? [], undefined, 0);
  return out;
}

/** Symbols whose text an edit (ranges in the on-disk text) touches anywhere, body included. */
export function touchedDeclarations(declarations: readonly Declaration[], changed: readonly Range[]): Declaration[] {
  return declarations.filter((d) => changed.some((c) => touches(d.range, c) || touches(c, d.range) || (c.start.line >= d.range.start.line && c.start.line <= d.range.end.line)));
}

/**
 * The head of a declaration: from its start (decorators, modifiers, keyword) through its name and
 * on to the end of the line where the brackets opened after the name close again — the name,
 * the parameters and, on that line, the return type or the declared type. What other files see of
 * it, but for types a body may infer.
 */
export function headOf(lines: readonly string[], d: Declaration): Range {
  const last = Math.min(d.range.end.line, d.selectionRange.end.line + MAX_HEAD_LINES, lines.length - 1);
  let depth = 0;
  let line = d.selectionRange.end.line;
  for (; line <= last; line++) {
    const text = lines[line] ?? '';
    for (let i = line === d.selectionRange.end.line ? d.selectionRange.end.character : 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '(' || ch === '[') depth++;
      else if (ch === ')' || ch === ']') depth--;
    }
    if (depth <= 0) break;
  }
  const end = Math.min(line, last);
  return { start: d.range.start, end: { line: end, character: (lines[end] ?? '').length } };
}

/**
 * Declarations whose head (name, parameters, declared types) an edit changes: what files that use
 * them may break on. An edit only inside a body is not one of them.
 */
export function changedDeclarations(declarations: readonly Declaration[], baseText: string, changed: readonly Range[]): Declaration[] {
  const lines = splitLines(baseText);
  return declarations.filter((d) => {
    const head = headOf(lines, d);
    return changed.some((c) => touches(head, c));
  });
}

/**
 * The word other files write to use a declaration: its name (the last identifier of it, as in
 * gopls's `(*T).M`), or for a special member such as `__init__` the name of its class.
 */
export function usedName(d: Declaration): string | undefined {
  const last = (s: string | undefined) => s?.match(/[A-Za-z_$][\w$]*(?=[^\w$]*$)/)?.[0];
  const name = last(d.name);
  if (name && /^__\w+__$/.test(name) && d.container) return last(d.container);
  return name;
}
