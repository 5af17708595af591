import type { DocumentSymbol, Position, Range, SymbolInformation } from 'vscode-languageserver-protocol';
import { isWithin, pathToUri, uriToPath, SymbolKind } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import type { ToolContext } from '../catalog/toolDefinition.js';
import type { QueryFn } from '../project/freshAnswer.js';

/** A document symbol with its parent: what enclosing-symbol questions need. */
export interface SymbolNode {
  name: string;
  kind: SymbolKind;
  range: Range;
  selectionRange: Range;
  detail?: string | undefined;
  parent?: SymbolNode | undefined;
  children: SymbolNode[];
}

/** Symbols that hold code: a reference inside one of them is a use by it. */
export const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([SymbolKind.Function, SymbolKind.Method, SymbolKind.Constructor]);
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([SymbolKind.Class, SymbolKind.Interface, SymbolKind.Struct, SymbolKind.Enum]);

export function contains(range: Range, p: Position): boolean {
  const afterStart = p.line > range.start.line || (p.line === range.start.line && p.character >= range.start.character);
  const beforeEnd = p.line < range.end.line || (p.line === range.end.line && p.character <= range.end.character);
  return afterStart && beforeEnd;
}

function fromDocumentSymbols(list: readonly DocumentSymbol[], parent?: SymbolNode): SymbolNode[] {
  return list.map((s) => {
    const node: SymbolNode = { name: s.name, kind: s.kind, range: s.range, selectionRange: s.selectionRange, detail: s.detail, parent, children: [] };
    node.children = fromDocumentSymbols(s.children ?? [], node);
    return node;
  });
}

/** Flat SymbolInformation (older servers): nesting rebuilt from range containment. */
function fromSymbolInformation(list: readonly SymbolInformation[]): SymbolNode[] {
  const sorted = [...list].sort((a, b) => a.location.range.start.line - b.location.range.start.line || a.location.range.start.character - b.location.range.start.character);
  const roots: SymbolNode[] = [];
  const stack: SymbolNode[] = [];
  for (const s of sorted) {
    const node: SymbolNode = { name: s.name, kind: s.kind, range: s.location.range, selectionRange: s.location.range, children: [] };
    while (stack.length > 0 && !contains((stack.at(-1) as SymbolNode).range, s.location.range.start)) stack.pop();
    const parent = stack.at(-1);
    if (parent) {
      node.parent = parent;
      parent.children.push(node);
    } else roots.push(node);
    stack.push(node);
  }
  return roots;
}

/**
 * Document symbols of files, asked once per file per tool call. Each file is opened in its server
 * with its disk text first (the answer is about the file as it is now).
 */
export class SymbolTrees {
  private readonly trees = new Map<string, Promise<SymbolNode[]>>();

  constructor(private readonly ctx: ToolContext) {}

  of(uri: string): Promise<SymbolNode[]> {
    let tree = this.trees.get(uri);
    if (!tree) {
      tree = this.load(uri);
      this.trees.set(uri, tree);
    }
    return tree;
  }

  ofPath(path: string): Promise<SymbolNode[]> {
    return this.of(pathToUri(path));
  }

  private async load(uri: string): Promise<SymbolNode[]> {
    const path = uriToPath(uri);
    // Only workspace files: opening typeshed's builtins.pyi or lib.d.ts for a container name costs more than it tells.
    if (!path || !this.ctx.workspace.registry.forFile(path) || !this.ctx.workspace.rootList.some((r) => isWithin(r, path))) return [];
    const handle = await this.ctx.workspace.openDocument(path).catch(() => undefined);
    if (!handle) return [];
    return documentSymbols(handle.conn, handle.uri, this.ctx.signal, (c, m, p, s) => this.ctx.workspace.query(c, m, p, s));
  }
}

export async function documentSymbols(conn: LspConnection, uri: string, signal: AbortSignal, query: QueryFn = (c, m, p, s) => c.request(m, p, { signal: s })): Promise<SymbolNode[]> {
  if (!conn.supports('textDocument/documentSymbol')) return [];
  const result = await query<DocumentSymbol[] | SymbolInformation[] | null>(conn, 'textDocument/documentSymbol', { textDocument: { uri } }, signal);
  const list = result ?? [];
  if (list.length > 0 && 'location' in (list[0] as object)) return fromSymbolInformation(list as SymbolInformation[]);
  return fromDocumentSymbols(list as DocumentSymbol[]);
}

/** The innermost symbol whose range holds `p` and that `accept` takes (every symbol by default). */
export function enclosingSymbol(tree: readonly SymbolNode[], p: Position, accept: (s: SymbolNode) => boolean = () => true): SymbolNode | undefined {
  let found: SymbolNode | undefined;
  let level = tree;
  for (;;) {
    const next = level.find((s) => contains(s.range, p));
    if (!next) return found;
    if (accept(next)) found = next;
    level = next.children;
  }
}

/** The symbol whose name (selection range) is at `p`. */
export function symbolNamedAt(tree: readonly SymbolNode[], p: Position): SymbolNode | undefined {
  const inner = enclosingSymbol(tree, p, (s) => contains(s.selectionRange, p));
  return inner;
}

/** "Outer.Inner" of the symbols around a node (undefined at top level). */
export function containerName(node: SymbolNode): string | undefined {
  const names: string[] = [];
  for (let p = node.parent; p; p = p.parent) names.unshift(p.name);
  return names.length > 0 ? names.join('.') : undefined;
}

export function walkSymbols(tree: readonly SymbolNode[], visit: (s: SymbolNode) => void): void {
  for (const s of tree) {
    visit(s);
    walkSymbols(s.children, visit);
  }
}
